import TesseraCore

/// What a cacheable job's result leaves behind: files under the job's output root, and the
/// result itself in a few bytes (metadata) from which `JobCaching.decode` makes it again.
public struct CachedResult: Sendable, Equatable {
    /// Paths relative to `JobCaching.root`, in a stable order.
    public var files: [String]
    public var metadata: [UInt8]
    /// SHA-256 of files the job hashed as it wrote them, by path: the store links them in under
    /// that name instead of reading every byte again (a bundle of 50 MB, thousands of variants).
    public var knownHashes: [String: ContentHash]

    public init(files: [String], metadata: [UInt8], knownHashes: [String: ContentHash] = [:]) {
        self.files = files
        self.metadata = metadata
        self.knownHashes = knownHashes
    }
}

/// How one job's result is stored in and restored from a `JobCache`: made from the job's
/// `CachedOutput` type (`Job.cached(under:)`), so every cacheable stage shares one codec.
///
/// A job with `caching` is consulted in the cache before anything upstream of it runs; on a hit
/// its files are restored and its result decoded, and jobs only it needed never run.
public struct JobCaching: Sendable {
    /// The folder the job's files live under (the run's output folder): entries hold paths
    /// relative to it, so a cache serves any output folder.
    public let root: String
    /// The files the job writes under `root` (paths relative to it), when its input fixes them
    /// (a variant's path): an entry from another machine naming others is not this job's
    /// (`CachedJob`). Nil when only the run says.
    public var files: [String]? { fileList?.array }
    /// The files as the caching keeps them: one without an array.
    let fileList: CompactList<String>?
    /// The result's type, from which the codec below is made when a result is stored or
    /// restored: not two closures made per job, whose contexts were two allocations for each of
    /// 500,000 cached jobs (100,000 tiny masters), held from planning until the job ran (issue 54,
    /// item 14). A metatype is held inline.
    let output: any CachedOutput.Type

    init<Output: CachedOutput>(root: String, files: [String]?, output: Output.Type) {
        self.root = root
        fileList = files.map(CompactList.init)
        self.output = output
    }

    /// The result's files and metadata, as the cache stores them.
    func encode(_ value: any Sendable) throws(TesseraError) -> CachedResult {
        try Self.encode(value, as: output)
    }

    /// The result a cache entry's metadata describes.
    func decode(_ metadata: [UInt8]) throws(TesseraError) -> any Sendable {
        try Self.decode(metadata, as: output)
    }

    private static func encode<Output: CachedOutput>(_ value: any Sendable, as _: Output.Type) throws(TesseraError) -> CachedResult {
        // The graph pairs this caching with a job returning `Output`, so the value always is one.
        guard let output = value as? Output else {
            throw TesseraError(.internalFailure, reason: "cannot cache a \(type(of: value)) as \(Output.self)")
        }
        return CachedResult(files: output.files, metadata: try StableJSON.compact(output), knownHashes: output.knownHashes)
    }

    private static func decode<Output: CachedOutput>(_ metadata: [UInt8], as _: Output.Type) throws(TesseraError) -> any Sendable {
        try StableJSON.decode(Output.self, from: metadata, source: "a cache entry")
    }

    /// Bumped when the meaning of a cache entry changes, so old entries are never read as new ones.
    /// 3: job keys are derived from what stages declare, and nothing is added to them.
    /// 4: an entry names the key it is stored under (issue 54, item 9), so one filed under
    /// another job's key is a miss; entries from before are never looked up.
    public static let formatVersion = 4

    /// The key an entry is stored under: the job key and its kind.
    public func cacheKey(for job: AnyJob) -> ContentHash {
        var hasher = StableHasher()
        hasher.combine("tessera.cache.v\(Self.formatVersion)")
        hasher.combine(job.key.hash)
        hasher.combine(job.kind.rawValue)
        return hasher.finalize()
    }
}

/// A cache of job results: the seam between the engine and a store (`BuildCache`).
///
/// Both calls are synchronous and made from worker threads, many at once; neither throws,
/// because a cache that fails is a miss, never a failed build (the store keeps its own warnings).
public protocol JobCache: Sendable {
    /// Restores the entry's files under `root` (each atomically, all verified before any is
    /// written) and returns its metadata, or nil on a miss or a corrupt entry.
    func restore(_ key: ContentHash, kind: JobKind, into root: String) -> [UInt8]?
    /// Stores the result whose files are now under `root`.
    func store(_ key: ContentHash, kind: JobKind, result: CachedResult, from root: String)
    /// How many lookups to run at once (more than the cores for a store across the network).
    var lookupConcurrency: Int { get }
    /// Problems met (a remote store unreachable, a full disk), one line per kind.
    var warnings: [String] { get }
    /// Called once the run is over: the place to save what the store learnt (file fingerprints).
    func finishRun() async
    /// Called once before the lookups with the keys of every cacheable job of the run, so a store
    /// can fetch what it lacks in bulk.
    func prepare(_ keys: [ContentHash]) async
    /// A small record its caller keeps beside the job results (a build's plan, by its inputs),
    /// checked against its hash; nil when absent or damaged.
    func record(_ key: ContentHash) -> [UInt8]?
    /// Keeps `bytes` under `key` (replacing a record there), shared like the job results.
    func storeRecord(_ bytes: [UInt8], as key: ContentHash)
    /// The run's input files by content hash, given before any lookup: a store may restore an
    /// output equal to one from it rather than fetch it, and need not share it.
    func useSources(_ files: [ContentHash: String])
}

extension JobCache {
    public func prepare(_ keys: [ContentHash]) async {}
    public func record(_ key: ContentHash) -> [UInt8]? { nil }
    public func storeRecord(_ bytes: [UInt8], as key: ContentHash) {}
    public func useSources(_ files: [ContentHash: String]) {}
}

/// Cache activity of one stage in one run.
public struct CacheCounts: Sendable, Equatable, Codable {
    /// Jobs whose result came from the cache.
    public var hits = 0
    /// Cacheable jobs that were not in the cache (or whose entry was corrupt) and ran.
    public var misses = 0
    /// Jobs that never ran because every job needing them was a hit.
    public var avoided = 0

    public init(hits: Int = 0, misses: Int = 0, avoided: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.avoided = avoided
    }
}
