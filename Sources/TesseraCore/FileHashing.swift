/// How a build learns the SHA-256 of a file it reads: by hashing its bytes, or from an index of
/// files already hashed (`BuildCache.FingerprintIndex`) that re-hashes only what changed.
public protocol FileHashing: Sendable {
    func contentHash(ofFileAt path: String) throws(TesseraError) -> ContentHash
}

/// Hashes every file's bytes, every time: the behaviour without a cache.
public struct DirectFileHashing: FileHashing {
    public init() {}

    public func contentHash(ofFileAt path: String) throws(TesseraError) -> ContentHash {
        try ContentHash.ofFile(at: path)
    }
}
