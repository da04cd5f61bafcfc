import Crypto

/// Builds a `ContentHash` from content that arrives in pieces (a file read in chunks, a bundle as
/// it is written, a stream being decompressed), so nobody has to hold the whole content to hash it.
public struct ContentHasher {
    private var sha = SHA256()

    public init() {}

    /// Adds the next piece of the content.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha.update(bufferPointer: bytes)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The SHA-256 of every piece added, in order.
    public func finalize() -> ContentHash {
        ContentHash(bytes: Array(sha.finalize()))
    }
}
