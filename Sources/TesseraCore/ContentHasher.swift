import Crypto

/// SHA-256 over bytes that arrive in pieces (a file streamed in chunks, a bundle as it is
/// written): the same digest `ContentHash.of` gives for the whole.
public struct ContentHasher {
    private var sha = SHA256()

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha.update(bufferPointer: bytes)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public func finalize() -> ContentHash {
        ContentHash(bytes: Array(sha.finalize()))
    }
}
