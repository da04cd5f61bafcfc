import Synchronization
import TesseraCore

/// A job as the graph and the scheduler hold it: its result's type erased, so that jobs of every
/// stage sit in one graph. Jobs are made typed (`Job<Output>`); this is what reading a graph shows.
public struct AnyJob: Sendable {
    // The stored properties are declared in this order so that the small ones share the padding
    // after the dependency list: the graph holds one `AnyJob` per job in one array, and at 88
    // bytes rather than 200 that array is about 80 MB smaller for the 700,000 jobs of 100,000
    // tiny masters, all of it resident to the run's end (issue 54, item 14).

    /// Stable identity; equal keys mean equal work, which the graph coalesces.
    public let key: JobKey
    /// The subject as the job keeps it: a folder and a path in it, joined when read.
    let subjectParts: JobSubject
    /// The dependencies as the job keeps them, to the run's end: one without an array.
    let dependencyList: CompactList<JobKey>
    /// The kind of job (`decode`, `downscale`, `encode`, ...): hashed into its key, and what reports and progress name.
    public let kind: JobKind
    /// An aggregating job (a manifest, a report) runs even when some dependencies failed, and reads
    /// their outcomes; an ordinary job is skipped as soon as one dependency fails.
    public let toleratesFailedDependencies: Bool
    /// Keep the result in the `RunReport` even after every dependent has read it (the caller wants it).
    public let keepsResult: Bool
    /// True for the stand-in of a job whose result was restored from the cache: it returns the
    /// restored result and is left out of the stage timings.
    public internal(set) var isCacheHit = false
    /// Estimated peak memory in bytes while the job runs; the scheduler keeps the sum of running jobs' costs within its budget.
    public let memoryCost: Int
    /// Bytes the job's result holds after it finishes (a decoded bitmap, say). The scheduler counts
    /// it against the budget until every dependent has ended, then drops the result.
    public let resultMemoryCost: Int
    /// Higher runs first among ready jobs.
    public let priority: Int
    /// What only running the job needs (its work, its caching, the files it reads), in one box
    /// that `dropWork()` lets go of: held inline these were 112 of a job's 200 bytes, kept in the
    /// graph's array to the end of the run after the job had ended. Nil once dropped.
    private var runnable: Runnable?

    /// What is needed to run a job, and dropped once it has run. Immutable: a job copied (a
    /// restricted graph, a cache stand-in) shares it, and a change makes a new one.
    private final class Runnable: Sendable {
        let work: @Sendable (JobContext) throws -> any Sendable
        let caching: JobCaching?
        let reads: CompactList<String>

        init(work: @escaping @Sendable (JobContext) throws -> any Sendable, caching: JobCaching?, reads: CompactList<String>) {
            self.work = work
            self.caching = caching
            self.reads = reads
        }
    }

    /// What the job works on, usually a file path: the first thing a failure report names.
    public var subject: String { subjectParts.text }
    /// Jobs whose results this one reads. They all finish before it starts.
    public var dependencies: [JobKey] { dependencyList.array }
    /// The input files the job reads (its `SourceFile`s' paths), for a remote executor that must
    /// ship them; empty for a job made without a stage, and once its work is dropped.
    public internal(set) var reads: [String] {
        get { runnable?.reads.array ?? [] }
        set {
            guard let runnable else { return }
            self.runnable = Runnable(work: runnable.work, caching: runnable.caching, reads: CompactList(newValue))
        }
    }
    /// How the result is cached; nil for a job whose result lives only in memory (a decode, an
    /// encode), which is rerun when a job that needs it misses, and once its work is dropped.
    public internal(set) var caching: JobCaching? {
        get { runnable?.caching }
        set {
            guard let runnable else { return }
            self.runnable = Runnable(work: runnable.work, caching: newValue, reads: runnable.reads)
        }
    }
    /// The work itself. It runs on a thread outside Swift's cooperative pool, because stages call
    /// blocking C codecs; it should call `context.checkCancellation()` between units of work.
    var work: @Sendable (JobContext) throws -> any Sendable { runnable?.work ?? Self.dropped }

    init(key: JobKey, kind: JobKind, subject: JobSubject, dependencies: [JobKey] = [], memoryCost: Int = 0,
                resultMemoryCost: Int = 0, priority: Int = 0, toleratesFailedDependencies: Bool = false,
                keepsResult: Bool = false, caching: JobCaching? = nil, reads: [String] = [],
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
        self.runnable = Runnable(work: work, caching: caching, reads: CompactList(reads))
    }

    /// Drops the work, the caching and the files read (`JobGraph.dropWork(of:)`): what is left
    /// fails if run again.
    mutating func dropWork() {
        runnable = nil
    }

    /// Whether the job still holds its work (`dropWork()` not called): for tests.
    var holdsWork: Bool { runnable != nil }

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

