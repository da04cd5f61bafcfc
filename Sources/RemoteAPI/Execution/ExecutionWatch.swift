import Foundation
import SwiftProtobuf
import REAPIMessages

/// What an `Execute` call's stream of `Operation`s came to, read one message at a time.
///
/// Servers differ in what they send: BuildGrid sends `ExecuteOperationMetadata` with each stage
/// (queued, executing, completed), buildbox-casd sends none at all, and both end with a done
/// operation holding an `ExecuteResponse`. So nothing here needs the metadata: only the done
/// message decides, and a stream that ends without one is a failure the caller can retry.
package struct ExecutionWatch: Sendable {
    /// How an action ended.
    package enum Outcome: Sendable {
        /// The command ran (or the server's action cache had its result): its exit code and
        /// outputs are in `result`, which may still be a failed command.
        case ran(Build_Bazel_Remote_Execution_V2_ActionResult, cached: Bool)
        /// The server could not run it (bad platform, missing input, internal error): why.
        case refused(String)
    }

    /// The operation's name, once the server has given it (for `WaitExecution`).
    package private(set) var operationName: String?
    /// The last stage the server reported, if it reports stages.
    package private(set) var stage: Build_Bazel_Remote_Execution_V2_ExecutionStage.Value?
    package private(set) var outcome: Outcome?

    package init() {}

    /// Takes the next message; the outcome once it is done.
    package mutating func receive(_ operation: Google_Longrunning_Operation) -> Outcome? {
        if !operation.name.isEmpty { operationName = operation.name }
        if operation.hasMetadata,
           let metadata = try? Build_Bazel_Remote_Execution_V2_ExecuteOperationMetadata(unpackingAny: operation.metadata) {
            stage = metadata.stage
        }
        guard operation.done else { return nil }
        let outcome: Outcome
        switch operation.result {
        case .error(let status)?:
            outcome = .refused("the operation failed: \(Self.describe(status))")
        case .response(let any)?:
            guard let response = try? Build_Bazel_Remote_Execution_V2_ExecuteResponse(unpackingAny: any) else {
                outcome = .refused("the operation's response is not an ExecuteResponse (\(any.typeURL))")
                break
            }
            // A sandbox that could not start (an unknown platform value, say) is reported here,
            // inside a successful stream, not as an RPC error.
            if response.hasStatus, response.status.code != 0 {
                outcome = .refused(Self.describe(response.status))
            } else if !response.hasResult {
                outcome = .refused("the server finished the action without a result")
            } else {
                outcome = .ran(response.result, cached: response.cachedResult)
            }
        case nil:
            outcome = .refused("the operation finished without a result or an error")
        }
        self.outcome = outcome
        return outcome
    }

    /// `CODE: message`, with the code's name from google.rpc.Code.
    static func describe(_ status: Google_Rpc_Status) -> String {
        let name = Google_Rpc_Code(rawValue: Int(status.code)).map { "\($0)" } ?? "code \(status.code)"
        return status.message.isEmpty ? name : "\(name): \(status.message)"
    }
}
