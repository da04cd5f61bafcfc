import TesseraCore

/// A job result the build cache can keep: it encodes itself (`Codable`, stored as JSON beside the
/// files) and names the files it leaves under the job's output root, which the cache stores and
/// restores with it. A stage whose `Output` conforms gets its cache codec from that alone.
public protocol CachedOutput: Codable, Sendable {
    /// The files this result describes, relative to the job's output root, in a stable order.
    var files: [String] { get }
    /// SHA-256 of files the job hashed as it wrote them, by path: the store links them in under
    /// that name instead of reading every byte again.
    var knownHashes: [String: ContentHash] { get }
}

extension CachedOutput {
    public var knownHashes: [String: ContentHash] { [:] }
}
