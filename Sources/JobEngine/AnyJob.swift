import Synchronization
import TesseraCore

/// A job as the graph and the scheduler hold it: its result's type erased, so that jobs of every
/// stage sit in one graph. Jobs are made typed (`Job<Output>`); this is what reading a graph shows.
public struct AnyJob: Sendable {
    /// Stable identity; equal keys mean equal work, which the graph coalesces.
    public let key: JobKey
    /// The kind of job (`decode`, `downscale`, `encode`, ...): hashed into its key, and what reports and progress name.
    public let kind: JobKind
    /// What the job works on, usually a file path: the first thing a failure report names.
    public var subject: String { subjectParts.text }
    /// The subject as the job keeps it: a folder and a path in it, joined when read.
    let subjectParts: JobSubject
    /// Jobs whose results this one reads. They all finish before it starts.
    public var dependencies: [JobKey] { dependencyList.array }
    /// The dependencies as the job keeps them, to the run's end: one without an array.
    let dependencyList: CompactList<JobKey>
    /// Estimated peak memory in bytes while the job runs; the scheduler keeps the sum of running jobs' costs within its budget.
    public let memoryCost: Int
    /// Bytes the job's result holds after it finishes (a decoded bitmap, say). The scheduler counts
    /// it against the budget until every dependent has ended, then drops the result.
    public let resultMemoryCost: Int
    /// Higher runs first among ready jobs.
    public let priority: Int
    /// An aggregating job (a manifest, a report) runs even when some dependencies failed, and reads
    /// their outcomes; an ordinary job is skipped as soon as one dependency fails.
    public let toleratesFailedDependencies: Bool
    /// Keep the result in the `RunReport` even after every dependent has read it (the caller wants it).
    public let keepsResult: Bool
    /// The input files the job reads (its `SourceFile`s' paths), for a remote executor that must
    /// ship them; empty for a job made without a stage.
    public internal(set) var reads: [String] {
        get { readList.array }
        set { readList = CompactList(newValue) }
    }
    /// The files read as the job keeps them: one without an array.
    private var readList = CompactList<String>([])
    /// How the result is cached; nil for a job whose result lives only in memory (a decode, an
    /// encode), which is rerun when a job that needs it misses.
    public internal(set) var caching: JobCaching?
    /// True for the stand-in of a job whose result was restored from the cache: it returns the
    /// restored result and is left out of the stage timings.
    public internal(set) var isCacheHit = false
    /// The work itself. It runs on a thread outside Swift's cooperative pool, because stages call
    /// blocking C codecs; it should call `context.checkCancellation()` between units of work.
    private(set) var work: @Sendable (JobContext) throws -> any Sendable

    init(key: JobKey, kind: JobKind, subject: JobSubject, dependencies: [JobKey] = [], memoryCost: Int = 0,
                resultMemoryCost: Int = 0, priority: Int = 0, toleratesFailedDependencies: Bool = false,
                keepsResult: Bool = false, caching: JobCaching? = nil,
                work: @escaping @Sendable (JobContext) throws -> any Sendable) {
        self.key = key
        self.kind = kind
        self.subjectParts = subject
        self.dependencyList = CompactList(dependencies)
        self.memoryCost = max(0, memoryCost)
        self.resultMemoryCost = max(0, resultMemoryCost)
        self.priority = priority
        self.toleratesFailedDependencies = toleratesFailedDependencies
        self.keepsResult = keepsResult
        self.caching = caching
        self.work = work
    }

    /// Drops the work, the caching and the files read (`JobGraph.dropWork(of:)`): what is left
    /// fails if run again.
    mutating func dropWork() {
        work = Self.dropped
        caching = nil
        reads = []
    }

    private static let dropped: @Sendable (JobContext) throws -> any Sendable = { _ in
        throw TesseraError(.internalFailure, reason: "a job's work was run again after its run had ended")
    }

    /// The identifying part of a job, without its work: what events and reports carry.
    public var summary: JobSummary { JobSummary(key: key, kind: kind, subject: subject, fromCache: isCacheHit) }
}

/// A job's identity for events and reports.
public struct JobSummary: Sendable, Hashable {
    public let key: JobKey
    public let kind: JobKind
    public let subject: String
    /// True when the job's result was restored from the cache rather than made.
    public var fromCache = false
}

