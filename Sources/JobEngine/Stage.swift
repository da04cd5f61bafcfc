import TesseraCore

/// One kind of job: its name, its version, and the type of what each of its jobs returns.
///
/// The name and version go into every key the stage makes, so a new version, like a changed
/// option, never reuses an old result. A stage whose `Output` is a `CachedOutput` can have its
/// jobs cached (`Job.cached(under:salt:)`); the files it leaves are the ones that output names.
public protocol Stage: Sendable {
    associatedtype Output: Sendable
    static var name: StageName { get }
    /// Bumped whenever the same inputs and options would give different outputs.
    static var version: Int { get }
}

extension Stage {
    /// The key of one of this stage's jobs: the stage's name and version, the options that change
    /// its output, and the content of its inputs.
    public static func key(options: [String: String] = [:], inputs: [ContentHash] = []) -> JobKey {
        JobKey(stage: name, version: version, options: options, inputs: inputs)
    }

    /// One of this stage's jobs, named after the stage.
    public func job(key: JobKey, subject: String, dependencies: [JobKey] = [], memoryCost: Int = 0,
                    resultMemoryCost: Int = 0, priority: Int = 0, toleratesFailedDependencies: Bool = false,
                    keepsResult: Bool = false,
                    work: @escaping @Sendable (JobContext) throws -> Output) -> Job<Output> {
        Job(key: key, stage: Self.name, subject: subject, dependencies: dependencies, memoryCost: memoryCost,
            resultMemoryCost: resultMemoryCost, priority: priority,
            toleratesFailedDependencies: toleratesFailedDependencies, keepsResult: keepsResult, work: work)
    }
}
