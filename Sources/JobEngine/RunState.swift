import TesseraCore

/// The bookkeeping of one scheduler run, owned by the scheduling loop alone.
struct RunState {
    /// The run's jobs; a job's work is dropped once it has ended (`Scheduler.run`).
    var graph: JobGraph
    var ready = ReadyQueue()
    var running: Set<JobKey> = []
    var runningCost = 0
    /// Memory held by finished jobs' results that some dependent has yet to read.
    var heldCost = 0
    var outcomes: [JobKey: JobOutcome] = [:]
    var failureCount = 0
    var stopping = false
    /// How long each stage's jobs ran, for `RunReport.stageTimings`.
    var spans: [JobKind: [JobSpan]] = [:]
    private var pendingDependencies: [JobKey: Int] = [:]
    private var dependents: [JobKey: [JobKey]] = [:]
    private var unfinishedDependents: [JobKey: Int] = [:]
    private var ranks: [JobKey: UInt64] = [:]
    private var peakRunning = 0
    private var peakCost = 0
    private var startOrder: [JobKey] = []

    init(graph: JobGraph, options: SchedulerOptions) {
        self.graph = graph
        var generator = SplitMix64(seed: {
            if case .shuffled(let seed) = options.tieBreak { return seed }
            return 0
        }())
        for (index, key) in graph.insertionOrder.enumerated() {
            let job = graph.job(key)!
            // A job listing the same dependency twice still waits for it once.
            let unique = Set(job.dependencies)
            pendingDependencies[key] = unique.count
            for dependency in unique {
                dependents[dependency, default: []].append(key)
                unfinishedDependents[dependency, default: 0] += 1
            }
            switch options.tieBreak {
            case .insertionOrder: ranks[key] = UInt64(index)
            case .shuffled: ranks[key] = generator.next()
            }
        }
    }

    func initiallyReady() -> [ReadyQueue.Entry] {
        graph.insertionOrder.filter { pendingDependencies[$0] == 0 }.map(entry(for:))
    }

    private func entry(for key: JobKey) -> ReadyQueue.Entry {
        ReadyQueue.Entry(key: key, priority: graph.job(key)!.priority, rank: ranks[key]!)
    }

    func dependencyOutcomes(of job: AnyJob) -> [JobKey: JobOutcome] {
        var result: [JobKey: JobOutcome] = [:]
        for dependency in job.dependencies { result[dependency] = outcomes[dependency] }
        return result
    }

    mutating func markStarted(_ job: AnyJob) {
        running.insert(job.key)
        runningCost += job.memoryCost
        startOrder.append(job.key)
        peakRunning = max(peakRunning, running.count)
        peakCost = max(peakCost, runningCost + heldCost)
    }

    /// The estimated memory in use: running jobs plus results waiting for their readers.
    var committedCost: Int { runningCost + heldCost }

    mutating func markEnded(_ job: AnyJob) {
        running.remove(job.key)
        runningCost -= job.memoryCost
    }

    /// Records how `key` ended. A successful result with readers is held (and counted) until they
    /// have all ended; then it is dropped, which is what keeps a long run's memory flat.
    mutating func record(_ outcome: JobOutcome, for key: JobKey) {
        outcomes[key] = outcome
        if outcome.isSuccess, unfinishedDependents[key, default: 0] > 0 {
            heldCost += graph.job(key)!.resultMemoryCost
        }
        consumeInputs(of: key)
    }

    /// One more reader of each of `key`'s dependencies has ended; release results nobody needs any more.
    private mutating func consumeInputs(of key: JobKey) {
        for dependency in Set(graph.job(key)!.dependencies) {
            unfinishedDependents[dependency]! -= 1
            if unfinishedDependents[dependency] == 0, !graph.job(dependency)!.keepsResult,
               case .succeeded = outcomes[dependency] {
                outcomes[dependency] = .succeeded(ReleasedResult())
                heldCost -= graph.job(dependency)!.resultMemoryCost
            }
        }
    }

    /// Called once `key` has an outcome: dependents whose last dependency this was become ready;
    /// if it did not succeed, dependents that need it are skipped, transitively. Returns the jobs skipped.
    mutating func release(dependentsOf key: JobKey) -> [AnyJob] {
        var skipped: [AnyJob] = []
        var queue = [key]
        while let finished = queue.popLast() {
            let succeeded = outcomes[finished]?.isSuccess ?? false
            for dependent in dependents[finished, default: []] where outcomes[dependent] == nil {
                let job = graph.job(dependent)!
                if !succeeded && !job.toleratesFailedDependencies {
                    let cause = graph.job(finished)!
                    record(.skipped(TesseraError(
                        .dependencyFailed, file: job.subject, stage: ProblemOrigin(job.kind),
                        reason: "not run because \(cause.kind) of \(cause.subject) did not succeed")), for: dependent)
                    skipped.append(job)
                    queue.append(dependent)
                    continue
                }
                pendingDependencies[dependent]! -= 1
                if pendingDependencies[dependent] == 0 { ready.push(entry(for: dependent)) }
            }
        }
        return skipped
    }

    func progress(elapsedSeconds: Double) -> RunProgress {
        RunProgress(total: graph.count, done: outcomes.count, failed: failureCount, running: running.count,
                    elapsedSeconds: elapsedSeconds)
    }

    func report(cancelled: Bool) -> RunReport {
        var all = outcomes
        for key in graph.insertionOrder where all[key] == nil { all[key] = .cancelled }
        var failures: [JobFailure] = []
        var skippedCount = 0, cancelledCount = 0
        for (key, outcome) in all {
            switch outcome {
            case .failed(let error): failures.append(JobFailure(job: graph.job(key)!.summary, error: error))
            case .skipped: skippedCount += 1
            case .cancelled: cancelledCount += 1
            case .succeeded: break
            }
        }
        failures.sort { ($0.job.subject, $0.job.kind, $0.job.key) < ($1.job.subject, $1.job.kind, $1.job.key) }
        return RunReport(outcomes: all, failures: failures, skippedCount: skippedCount,
                         cancelledCount: cancelledCount, wasCancelled: cancelled, peakRunningJobs: peakRunning,
                         peakEstimatedMemory: peakCost, startOrder: startOrder,
                         stageTimings: StageTiming.summarise(spans))
    }
}

/// What an intermediate job's outcome holds once every reader is done with its result.
struct ReleasedResult: Sendable {}

/// A tiny, fast, seedable generator (Steele, Lea and Flood's SplitMix64): enough for tie-breaks.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
