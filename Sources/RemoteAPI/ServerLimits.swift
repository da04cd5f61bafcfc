import Foundation
import REAPIMessages

/// What a server's `GetCapabilities` answer allows a cache client: checked once per connection.
package struct ServerLimits: Sendable, Equatable {
    /// The most blob bytes one `BatchUpdateBlobs` or `BatchReadBlobs` may carry; larger blobs and
    /// batches go through ByteStream.
    package var batchBytes: Int
    /// Whether `UpdateActionResult` is allowed (false: the cache can only be read).
    package var updatesActionCache: Bool
    /// Whether the server runs actions (`Execute`): a remote executor needs it.
    package var executes: Bool

    /// The gRPC message limit servers enforce whatever they advertise (4 MiB): buildbox-casd
    /// advertises `max_batch_total_size_bytes: 0` ("no limit") yet refuses larger messages.
    package static let messageLimit = 4 << 20
    /// What a batch leaves for the message's framing: casd refuses a `BatchReadBlobs` of more than
    /// 4 MiB − 64 KiB in all (4,128,768 bytes).
    package static let headroom = 64 << 10
    /// What each blob in a batch costs besides its bytes (its digest, status and framing).
    package static let perBlobOverhead = 128

    package init(batchBytes: Int, updatesActionCache: Bool, executes: Bool = false) {
        self.batchBytes = batchBytes
        self.updatesActionCache = updatesActionCache
        self.executes = executes
    }

    /// The limits `capabilities` allows, or why a Tessera cache cannot use the server (it does
    /// not offer SHA-256, the only digest function Tessera's keys and blobs have).
    package static func from(_ capabilities: Build_Bazel_Remote_Execution_V2_ServerCapabilities) -> Result<ServerLimits, RemoteCallError> {
        let cache = capabilities.cacheCapabilities
        // An empty list is a server of REAPI before 2.0's digest negotiation: SHA-256 was then the only function.
        guard cache.digestFunctions.isEmpty || cache.digestFunctions.contains(.sha256) else {
            let offered = cache.digestFunctions.map { "\($0)" }.joined(separator: ", ")
            return .failure(RemoteCallError("the server does not offer the SHA-256 digest function (it offers \(offered))"))
        }
        let advertised = Int(clamping: cache.maxBatchTotalSizeBytes)
        let cap = advertised > 0 ? min(advertised, messageLimit) : messageLimit
        return .success(ServerLimits(batchBytes: max(cap - headroom, 0),
                                     updatesActionCache: !cache.hasActionCacheUpdateCapabilities
                                        || cache.actionCacheUpdateCapabilities.updateEnabled,
                                     executes: capabilities.hasExecutionCapabilities
                                        && capabilities.executionCapabilities.execEnabled))
    }
}
