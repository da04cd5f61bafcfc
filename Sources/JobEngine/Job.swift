import TesseraCore

/// One unit of work for a `JobGraph`: a stage applied to inputs, with what the scheduler needs to
/// place it, and the type of what it returns. `JobGraph.add` hands back a `JobRef<Output>`, through
/// which dependents and the caller read the result.
public struct Job<Output: Sendable>: Sendable {
    /// The job as the graph holds it.
    public internal(set) var erased: AnyJob

    /// - Parameters:
    ///   - key: stable identity; equal keys mean equal work, which the graph coalesces.
    ///   - subject: what the job works on, usually a file path: the first thing a failure names.
    ///   - dependencies: jobs whose results this one reads; they all finish before it starts.
    ///   - memoryCost: estimated peak bytes while it runs, kept within the scheduler's budget.
    ///   - resultMemoryCost: bytes its result holds until every dependent has read it.
    ///   - priority: higher runs first among ready jobs.
    ///   - toleratesFailedDependencies: an aggregating job runs even when some inputs failed.
    ///   - keepsResult: the result stays in the `RunReport` for the caller.
    ///   - work: runs on a thread outside Swift's cooperative pool, because stages call blocking C
    ///     codecs; it should call `context.checkCancellation()` between units of work.
    public init(key: JobKey, kind: JobKind, subject: String, dependencies: [JobKey] = [], memoryCost: Int = 0,
                resultMemoryCost: Int = 0, priority: Int = 0, toleratesFailedDependencies: Bool = false,
                keepsResult: Bool = false, work: @escaping @Sendable (JobContext) throws -> Output) {
        erased = AnyJob(key: key, kind: kind, subject: JobSubject(subject), dependencies: dependencies, memoryCost: memoryCost,
                        resultMemoryCost: resultMemoryCost, priority: priority,
                        toleratesFailedDependencies: toleratesFailedDependencies, keepsResult: keepsResult,
                        work: { context in try work(context) })
    }

    /// A job whose erased work returns an `Output` (a stage's, `Stage.job(_:)`).
    init(erasing job: AnyJob) { erased = job }

    public var key: JobKey { erased.key }
}

extension Job where Output: CachedOutput {
    /// The same job with its result kept in the build cache: the files its output names, under
    /// `root` (the run's output folder, so one entry serves any output folder), and the output
    /// itself. Everything the result depends on is in the job's key: a stage declares it.
    /// `files`: the files it writes under `root` when its input fixes them (`Stage.cachedFiles`).
    public func cached(under root: String, files: [String]? = nil) -> Job {
        var copy = self
        copy.erased.caching = JobCaching(root: root, files: files, output: Output.self)
        return copy
    }
}
