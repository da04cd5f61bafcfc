import TesseraCore

/// What an entry must be to be one job's result: stored under the job's cache key (and naming
/// it), of the job's kind, and writing exactly the files the job writes. An entry that another
/// machine made (a remote executor's worker) is checked against it before it is taken, so an
/// entry filed under another job's key, or naming a file its job does not write, is never
/// restored in that job's place (issue 54, item 9).
public struct CachedJob: Sendable, Hashable {
    /// The key its entry is stored under (`JobCaching.cacheKey`).
    public let key: ContentHash
    public let kind: JobKind
    /// The files it writes under its cache root, when its input fixes them (`Stage.cachedFiles`).
    public let files: [String]?

    public init(key: ContentHash, kind: JobKind, files: [String]?) {
        self.key = key
        self.kind = kind
        self.files = files
    }

    /// `job`'s, when it is cached.
    public init?(_ job: AnyJob) {
        guard let caching = job.caching else { return nil }
        self.init(key: caching.cacheKey(for: job), kind: job.kind, files: caching.files)
    }
}
