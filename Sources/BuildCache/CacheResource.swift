import TesseraCore

/// What a remote cache holds: an entry under a Tessera key (`ac/<key>` over HTTP, an action
/// result over gRPC), or a blob by SHA-256 and size (`cas/<sha256>`).
package enum CacheResource: Hashable, Sendable {
    case action(ContentHash)
    /// The size is the blob's own (gRPC names blobs by hash and size; HTTP by hash alone).
    case blob(ContentHash, size: Int)

    /// Its path under a Bazel HTTP cache's base URL, which warnings name on any transport.
    package var path: String {
        switch self {
        case .action(let key): "ac/\(key.hex)"
        case .blob(let hash, _): "cas/\(hash.hex)"
        }
    }
}
