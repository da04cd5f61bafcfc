import Crypto

/// Builds a `ContentHash` from content that arrives in pieces (a file read in chunks, a stream
/// being decompressed), so nobody has to hold the whole content to hash it.
public struct ContentHasher {
    private var sha = SHA256()

    public init() {}

    /// Adds the next piece of the content.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha.update(bufferPointer: bytes)
    }

    /// The SHA-256 of every piece added, in order.
    public func finalize() -> ContentHash {
        ContentHash(bytes: Array(sha.finalize()))
    }
}
