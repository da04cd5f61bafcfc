import Synchronization
import TesseraCore

/// One unit of work in a `JobGraph`: a stage applied to inputs, with what the scheduler needs to place it.
public struct Job: Sendable {
    /// Stable identity; equal keys mean equal work, which the graph coalesces.
    public var key: JobKey
    /// The stage that does the work (`decode`, `downscale`, `encode`, ...): used in reports and progress.
    public var stage: StageName
    /// What the job works on, usually a file path: the first thing a failure report names.
    public var subject: String
    /// Jobs whose results this one reads. They all finish before it starts.
    public var dependencies: [JobKey]
    /// Estimated peak memory in bytes while the job runs; the scheduler keeps the sum of running jobs' costs within its budget.
    public var memoryCost: Int
    /// Bytes the job's result holds after it finishes (a decoded bitmap, say). The scheduler counts
    /// it against the budget until every dependent has ended, then drops the result.
    public var resultMemoryCost: Int
    /// Higher runs first among ready jobs.
    public var priority: Int
    /// An aggregating job (a manifest, a report) runs even when some dependencies failed, and reads
    /// their outcomes; an ordinary job is skipped as soon as one dependency fails.
    public var toleratesFailedDependencies: Bool
    /// Keep the result in the `RunReport` even after every dependent has read it (the caller wants it).
    public var keepsResult: Bool
    /// How the result is cached; nil for a job whose result lives only in memory (a decode, an
    /// encode), which is rerun when a job that needs it misses.
    public var caching: JobCaching?
    /// True for the stand-in of a job whose result was restored from the cache: it returns the
    /// restored result and is left out of the stage timings.
    public internal(set) var isCacheHit = false
    /// The work itself. It runs on a thread outside Swift's cooperative pool, because stages call
    /// blocking C codecs; it should call `context.checkCancellation()` between units of work.
    public var work: @Sendable (JobContext) throws -> any Sendable

    public init(key: JobKey, stage: StageName, subject: String, dependencies: [JobKey] = [], memoryCost: Int = 0,
                resultMemoryCost: Int = 0, priority: Int = 0, toleratesFailedDependencies: Bool = false,
                keepsResult: Bool = false, caching: JobCaching? = nil,
                work: @escaping @Sendable (JobContext) throws -> any Sendable) {
        self.key = key
        self.stage = stage
        self.subject = subject
        self.dependencies = dependencies
        self.memoryCost = max(0, memoryCost)
        self.resultMemoryCost = max(0, resultMemoryCost)
        self.priority = priority
        self.toleratesFailedDependencies = toleratesFailedDependencies
        self.keepsResult = keepsResult
        self.caching = caching
        self.work = work
    }

    /// The identifying part of a job, without its work: what events and reports carry.
    public var summary: JobSummary { JobSummary(key: key, stage: stage, subject: subject, fromCache: isCacheHit) }
}

/// A job's identity for events and reports.
public struct JobSummary: Sendable, Hashable {
    public let key: JobKey
    public let stage: StageName
    public let subject: String
    /// True when the job's result was restored from the cache rather than made.
    public var fromCache = false
}

/// What a running job sees: its dependencies' results and the cancellation flag.
public struct JobContext: Sendable {
    public let key: JobKey
    private let inputs: Inputs
    private let cancellation: CancellationSource

    /// The dependencies' outcomes, dropped when the job's body returns: whoever still holds the
    /// context (a finishing thread, a task being torn down) then holds no input, so an input is
    /// freed as soon as the scheduler lets go of it.
    private final class Inputs: Sendable {
        let outcomes: Mutex<[JobKey: JobOutcome]>
        init(_ outcomes: [JobKey: JobOutcome]) { self.outcomes = Mutex(outcomes) }
    }

    init(key: JobKey, outcomes: [JobKey: JobOutcome], cancellation: CancellationSource) {
        self.key = key
        self.inputs = Inputs(outcomes)
        self.cancellation = cancellation
    }

    /// Called by the scheduler when the job's body has returned.
    func releaseInputs() {
        inputs.outcomes.withLock { $0 = [:] }
    }

    /// The result of dependency `key`, as the type its job returned.
    public func input<T>(_ key: JobKey, as type: T.Type = T.self) throws(TesseraError) -> T {
        guard let outcome = inputs.outcomes.withLock({ $0[key] }) else {
            throw TesseraError(.internalFailure, reason: "job \(self.key) read \(key), which is not one of its dependencies")
        }
        guard case .succeeded(let value) = outcome else {
            throw TesseraError(.dependencyFailed, reason: "input \(key) did not succeed")
        }
        guard let typed = value as? T else {
            throw TesseraError(.internalFailure, reason: "input \(key) is \(Swift.type(of: value)), not \(T.self)")
        }
        return typed
    }

    /// The outcome of dependency `key`: how an aggregating job learns which inputs failed.
    public func outcome(of key: JobKey) -> JobOutcome? {
        inputs.outcomes.withLock { $0[key] }
    }

    public var isCancelled: Bool { cancellation.isCancelled }

    /// Throws once the run is being cancelled; call it between units of work.
    public func checkCancellation() throws(TesseraError) {
        try cancellation.check()
    }
}
