import TesseraCore

/// One kind of job, declared once: what each job reads (`Input`), the settings that change what
/// it makes (`Options`), what it returns (`Output`), where it runs among ready jobs (`priority`),
/// and the work itself (`run`).
///
/// The engine makes every job from these (`job(_:)`): its key is the stage's name and version,
/// its options and its input, and its dependencies are the upstream jobs the input holds
/// (`DeclaredInputs`), so a key part cannot be forgotten and a job cannot read a result it does
/// not wait for. A stage's other properties say where it works (its output folder, a memory
/// budget), never what it makes. A stage whose `Output` is a `CachedOutput` has its jobs cached
/// when `cacheRoot` names a folder.
public protocol Stage: Sendable {
    associatedtype Input: Encodable & Sendable
    associatedtype Options: Codable & Hashable & Sendable = NoOptions
    associatedtype Output: Sendable
    static var kind: JobKind { get }
    /// Bumped whenever the same inputs and options would give different outputs.
    static var version: Int { get }
    /// Higher runs first among ready jobs (`JobPriority`).
    static var priority: Int { get }
    /// An aggregating stage runs even when some of its upstreams failed, and gathers what was made.
    static var toleratesFailedInputs: Bool { get }
    /// Its results stay in the `RunReport` for the caller.
    static var keepsResults: Bool { get }
    var options: Options { get }

    /// What a job works on, usually a file path: the first thing a failure names.
    func subject(of input: Input) -> String
    /// The same subject as the job keeps it: a stage whose subject is a path under a folder says
    /// so (`JobSubject(_:under:)`), so that each job does not hold a joined copy until the run ends.
    /// Read as text it must equal `subject(of:)`.
    func jobSubject(of input: Input) -> JobSubject
    /// A job's estimated peak bytes while it runs, and the bytes its result holds until read.
    func memoryCost(of input: Input) -> JobMemory
    /// The folder a cached job's files live under; nil leaves the job uncached.
    func cacheRoot(for input: Input) -> String?
    /// The files a cached job on `input` writes under its cache root, when the input fixes them
    /// (a variant's path); nil when only running it tells. An entry another machine made for the
    /// job is taken only if it names exactly these (`CachedJob`).
    func cachedFiles(for input: Input) -> [String]?
    /// The work: runs on a thread outside Swift's cooperative pool, because stages call blocking
    /// C codecs; it should call `context.checkCancellation()` between units of work.
    func run(_ input: Input, context: JobContext) throws -> Output
}

/// The options of a stage that has none.
public struct NoOptions: Codable, Hashable, Sendable {
    public init() {}
}

/// What a job holds in memory: while it runs, and in its result until every dependent read it.
public struct JobMemory: Sendable {
    public var running: Int
    public var result: Int

    public init(running: Int = 0, result: Int = 0) {
        self.running = running
        self.result = result
    }
}

extension Stage {
    public static var toleratesFailedInputs: Bool { false }
    public static var keepsResults: Bool { false }
    public func memoryCost(of input: Input) -> JobMemory { JobMemory() }
    public func jobSubject(of input: Input) -> JobSubject { JobSubject(subject(of: input)) }
    public func cacheRoot(for input: Input) -> String? { nil }
    public func cachedFiles(for input: Input) -> [String]? { nil }
}

extension Stage where Options == NoOptions {
    public var options: NoOptions { NoOptions() }
}

extension Stage {
    /// The job of this stage on `input`, its key and dependencies derived from the declarations.
    public func job(_ input: Input) -> Job<Output> { uncachedJob(input) }

    /// The key alone: what a job on `input` would be known by.
    public func key(of input: Input) -> JobKey { declared(input).key }

    /// `caching`: how the job's result is cached, nil for none; given here, with the files read,
    /// so that the job's runnable part is made once (`AnyJob`), not remade for each.
    fileprivate func uncachedJob(_ input: Input, caching: JobCaching? = nil) -> Job<Output> {
        let declaration = declared(input)
        let memory = memoryCost(of: input)
        // The work is erased here, in one closure: `Job.init` wraps a typed closure in a second
        // one, and each is an allocation held from planning until the job runs, for each of the
        // 700,000 jobs of 100,000 tiny masters (issue 54, item 14).
        let erased = AnyJob(key: declaration.key, kind: Self.kind, subject: jobSubject(of: input),
                            dependencies: declaration.dependencies, memoryCost: memory.running,
                            resultMemoryCost: memory.result, priority: Self.priority,
                            toleratesFailedDependencies: Self.toleratesFailedInputs, keepsResult: Self.keepsResults,
                            caching: caching, reads: declaration.reads) { context in
            try run(input, context: context)
        }
        return Job(erasing: erased)
    }

    private func declared(_ input: Input) -> DeclaredInputs.Declaration {
        do {
            return try DeclaredInputs.derive(self, input: input)
        } catch {
            // Inputs are plain values; encoding one cannot fail but by a programming error.
            preconditionFailure("\(error)")
        }
    }
}

extension Stage where Output: CachedOutput {
    /// The job of this stage on `input`, cached under `cacheRoot(for:)` when it names a folder.
    public func job(_ input: Input) -> Job<Output> {
        uncachedJob(input, caching: cacheRoot(for: input).map {
            JobCaching(root: $0, files: cachedFiles(for: input), output: Output.self)
        })
    }
}
