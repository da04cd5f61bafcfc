import BuildCache
import Foundation
import RemoteAPI
import TesseraCore

extension CacheOptions {
    /// The endpoint of a `grpc://` or `grpcs://` server named by `url`, with the remote cache's
    /// credentials (TESSERA_REMOTE_CACHE_TOKEN).
    func endpoint(_ url: String) throws(TesseraError) -> RemoteEndpoint {
        guard var endpoint = RemoteEndpoint(url: url) else {
            throw TesseraError(.configuration, stage: .execute, reason: "'\(url)' is not a grpc:// or grpcs:// URL")
        }
        if let authorization = RemoteCache.authorization() { endpoint.headers["authorization"] = authorization }
        return endpoint
    }

    /// The cache the run uses; `defaultRemote` is the remote cache when none is named.
    func open(defaultRemote: String?) throws(TesseraError) -> BuildCache? {
        try open()
    }
}
