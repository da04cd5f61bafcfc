import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import REAPIMessages

/// A server's action cache: `GetActionResult` and `UpdateActionResult` under an action digest.
package struct ActionCacheClient: Sendable {
    package let connection: RemoteConnection

    package init(connection: RemoteConnection) {
        self.connection = connection
    }

    private var actionCache: Build_Bazel_Remote_Execution_V2_ActionCache.Client<RemoteConnection.Transport> {
        .init(wrapping: connection.client)
    }

    /// The result stored under `action`, or nil when there is none (`NOT_FOUND`: absent, or an
    /// entry whose output blobs the server no longer has). Inline contents are asked for, up to
    /// what one answer may carry.
    package func result(for action: REAPIDigest, inlining paths: [String] = []) async throws(RemoteCallError)
        -> Build_Bazel_Remote_Execution_V2_ActionResult? {
        try await RemoteThreads.run {
            var request = Build_Bazel_Remote_Execution_V2_GetActionResultRequest()
            request.instanceName = connection.endpoint.instance
            request.actionDigest = action
            request.inlineStdout = true
            request.inlineOutputFiles = paths
            request.digestFunction = .sha256
            do {
                return try await actionCache.getActionResult(request, metadata: connection.metadata, options: connection.options())
            } catch let error as RPCError where error.code == .notFound {
                return nil
            } catch {
                throw RemoteCallError("GetActionResult of \(action.hash)/\(action.sizeBytes)", error)
            }
        }
    }

    /// Stores `result` under `action`. The blobs it names must be in the CAS already: servers
    /// check them when serving it and answer `NOT_FOUND` for an entry that names absent ones,
    /// inline contents or not.
    package func store(_ result: Build_Bazel_Remote_Execution_V2_ActionResult, for action: REAPIDigest) async throws(RemoteCallError) {
        try await RemoteThreads.run {
            var request = Build_Bazel_Remote_Execution_V2_UpdateActionResultRequest()
            request.instanceName = connection.endpoint.instance
            request.actionDigest = action
            request.actionResult = result
            request.digestFunction = .sha256
            do {
                _ = try await actionCache.updateActionResult(request, metadata: connection.metadata, options: connection.options())
            } catch {
                throw RemoteCallError("UpdateActionResult of \(action.hash)/\(action.sizeBytes)", error)
            }
        }
    }
}
