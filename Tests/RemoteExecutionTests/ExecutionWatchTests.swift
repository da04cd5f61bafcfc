import Foundation
@testable import RemoteAPI
import SwiftProtobuf
import Testing
import REAPIMessages

/// The operation streams real servers send (FINDINGS from buildbox-casd 1.4.25 and BuildGrid
/// 0.9.1): casd two operations without metadata, BuildGrid three with a stage each.
@Suite("Reading an Execute stream")
struct ExecutionWatchTests {
    private func operation(_ name: String, done: Bool, stage: Build_Bazel_Remote_Execution_V2_ExecutionStage.Value? = nil,
                           response: Build_Bazel_Remote_Execution_V2_ExecuteResponse? = nil,
                           error: Google_Rpc_Status? = nil) throws -> Google_Longrunning_Operation {
        var operation = Google_Longrunning_Operation()
        operation.name = name
        operation.done = done
        if let stage {
            var metadata = Build_Bazel_Remote_Execution_V2_ExecuteOperationMetadata()
            metadata.stage = stage
            operation.metadata = try Google_Protobuf_Any(message: metadata)
        }
        if let response { operation.result = .response(try Google_Protobuf_Any(message: response)) }
        if let error { operation.result = .error(error) }
        return operation
    }

    private func response(exitCode: Int32 = 0, cached: Bool = false, status: Int32 = 0) -> Build_Bazel_Remote_Execution_V2_ExecuteResponse {
        var response = Build_Bazel_Remote_Execution_V2_ExecuteResponse()
        var result = Build_Bazel_Remote_Execution_V2_ActionResult()
        result.exitCode = exitCode
        response.result = result
        response.cachedResult = cached
        if status != 0 {
            var rpc = Google_Rpc_Status()
            rpc.code = status
            rpc.message = "Unsupported OSFamily \"Linux\""
            response.status = rpc
        }
        return response
    }

    @Test("casd's stream, without metadata, ends in the result")
    func withoutMetadata() throws {
        var watch = ExecutionWatch()
        #expect(watch.receive(try operation("#1", done: false)) == nil)
        let outcome = watch.receive(try operation("#1", done: true, response: response(exitCode: 3)))
        guard case .ran(let result, let cached)? = outcome else { Issue.record("\(String(describing: outcome))"); return }
        #expect(result.exitCode == 3)
        #expect(!cached)
        #expect(watch.operationName == "#1")
        #expect(watch.stage == nil)
    }

    @Test("BuildGrid's stream reports its stages and a cached result")
    func withStages() throws {
        var watch = ExecutionWatch()
        #expect(watch.receive(try operation("/u", done: false, stage: .queued)) == nil)
        #expect(watch.stage == .queued)
        #expect(watch.receive(try operation("/u", done: false, stage: .executing)) == nil)
        let outcome = watch.receive(try operation("/u", done: true, stage: .completed, response: response(cached: true)))
        guard case .ran(_, let cached)? = outcome else { Issue.record("not ran"); return }
        #expect(cached)
        #expect(watch.stage == .completed)
    }

    @Test("a sandbox that could not start, an operation error and a missing result are refusals")
    func refusals() throws {
        var watch = ExecutionWatch()
        guard case .refused(let reason)? = watch.receive(try operation("#2", done: true, response: response(status: 13))) else {
            Issue.record("a status inside the response was taken as a result"); return
        }
        #expect(reason.contains("internal") && reason.contains("OSFamily"))
        var error = Google_Rpc_Status()
        error.code = 9
        error.message = "no worker"
        var second = ExecutionWatch()
        guard case .refused(let why)? = second.receive(try operation("#3", done: true, error: error)) else {
            Issue.record("an operation error was not a refusal"); return
        }
        #expect(why.contains("failedPrecondition") && why.contains("no worker"))
        var third = ExecutionWatch()
        guard case .refused? = third.receive(try operation("#4", done: true)) else {
            Issue.record("a done operation without a result was not a refusal"); return
        }
    }
}
