import TesseraCore

/// A job that failed, with enough to tell the user what went wrong where.
public struct JobFailure: Sendable, Equatable {
    public let job: JobSummary
    public let error: TesseraError

    /// One line: `file: stage: reason`.
    public var message: String {
        error.located(file: job.subject, origin: ProblemOrigin(job.kind)).description
    }
}

/// Everything a scheduler run produced: each job's outcome, the failures, and the peaks it reached.
public struct RunReport: Sendable {
    public let outcomes: [JobKey: JobOutcome]
    /// Jobs that threw, sorted by subject then stage: the root causes. Jobs skipped because of
    /// them are counted in `skippedCount`, not repeated here.
    public let failures: [JobFailure]
    public let skippedCount: Int
    public let cancelledCount: Int
    /// Whether cancellation (Ctrl-C or fail-fast) stopped the run early.
    public let wasCancelled: Bool
    /// The most jobs that ran at once.
    public let peakRunningJobs: Int
    /// The largest estimated memory in use: running jobs' costs plus held results.
    public let peakEstimatedMemory: Int
    /// The order jobs started in; deterministic only under a fixed ready order and one worker.
    public let startOrder: [JobKey]
    /// Where the time went, by stage name.
    public var stageTimings: [JobKind: StageTiming] = [:]
    /// Cache hits, misses and avoided jobs by stage name; empty when the run had no cache.
    public var cache: [JobKind: CacheCounts] = [:]

    /// A run in which no job ran: every file the build needed was restored from the cache
    /// (`CacheableJobs.restore`).
    public static func restored(cache counts: [JobKind: CacheCounts]) -> RunReport {
        var report = RunReport(outcomes: [:], failures: [], skippedCount: 0, cancelledCount: 0, wasCancelled: false,
                               peakRunningJobs: 0, peakEstimatedMemory: 0, startOrder: [])
        report.cache = counts
        return report
    }

    /// The result of job `key`, when it succeeded. Results of jobs that other jobs read are
    /// released once those readers end, so only jobs nothing depends on (or that set `keepsResult`)
    /// keep theirs here.
    public func value<T>(of job: JobRef<T>) -> T? {
        outcomes[job.key]?.value(as: T.self)
    }

    /// True when every job succeeded.
    public var isSuccess: Bool {
        failures.isEmpty && skippedCount == 0 && cancelledCount == 0 && !wasCancelled
    }

    /// The conventional process exit status: 0 success, 1 failures, 130 interrupted (128 + SIGINT).
    public var exitStatus: Int32 {
        if wasCancelled && failures.isEmpty { return 130 }
        return isSuccess ? 0 : 1
    }
}
