import Foundation
import TesseraCore

/// A blob's REAPI digest: its SHA-256 and its size (the only digest function Tessera speaks).
package struct BlobDigest: Sendable, Hashable, CustomStringConvertible {
    package let sha256: ContentHash
    package let size: Int

    package init(sha256: ContentHash, size: Int) {
        self.sha256 = sha256
        self.size = size
    }

    package init(of bytes: Data) {
        self.init(sha256: ContentHash.of([UInt8](bytes)), size: bytes.count)
    }

    /// Nil when the message's hash is not 64 hex digits or its size is negative.
    package init?(_ message: Build_Bazel_Remote_Execution_V2_Digest) {
        guard message.sizeBytes >= 0, let hash = ContentHash(hex: message.hash) else { return nil }
        self.init(sha256: hash, size: Int(message.sizeBytes))
    }

    package var message: Build_Bazel_Remote_Execution_V2_Digest {
        var digest = Build_Bazel_Remote_Execution_V2_Digest()
        digest.hash = sha256.hex
        digest.sizeBytes = Int64(size)
        return digest
    }

    /// `hash/size`, as the API's resource names write it.
    package var description: String { "\(sha256.hex)/\(size)" }
}
