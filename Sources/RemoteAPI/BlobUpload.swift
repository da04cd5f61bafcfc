import Foundation
import TesseraCore
import REAPIMessages

/// The REAPI digest message (SHA-256 hex and size), as the clients take and give it.
package typealias REAPIDigest = Build_Bazel_Remote_Execution_V2_Digest

extension Build_Bazel_Remote_Execution_V2_Digest {
    /// The digest of a blob with this SHA-256 and size.
    package init(_ hash: ContentHash, size: Int) {
        self.init()
        self.hash = hash.hex
        sizeBytes = Int64(size)
    }

    /// The digest of `bytes`.
    package init<D: DataProtocol>(of bytes: D) {
        self.init(ContentHash.of(bytes), size: bytes.count)
    }

    /// The SHA-256 this digest names, nil when its hash is not one.
    package var contentHash: ContentHash? { ContentHash(hex: hash) }
}

/// A blob to store in a server's CAS: its digest and where its bytes are.
package struct BlobUpload: Sendable {
    package enum Source: Sendable {
        case bytes(Data)
        /// A file read in 1 MiB chunks (a large one is never held whole).
        case file(String)
    }

    package var digest: REAPIDigest
    package var source: Source

    package init(digest: REAPIDigest, source: Source) {
        self.digest = digest
        self.source = source
    }

    package var size: Int { Int(digest.sizeBytes) }
}
