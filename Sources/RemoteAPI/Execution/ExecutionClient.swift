import Foundation
import GRPCCore
import Synchronization
import REAPIMessages

/// The Execution service: runs an action the CAS holds and waits for its result.
package struct ExecutionClient: Sendable {
    package let connection: RemoteConnection

    package init(connection: RemoteConnection) {
        self.connection = connection
    }

    private var execution: Build_Bazel_Remote_Execution_V2_Execution.Client<RemoteConnection.Transport> {
        .init(wrapping: connection.client)
    }

    /// Runs the action `action` names (its command and input root already in the CAS), or takes
    /// its result from the server's action cache, and waits at most `timeout` for it, queueing
    /// included. A stream that breaks before the end is followed once with `WaitExecution`.
    /// `skipCacheLookup`: run it even when the server's action cache has a result.
    package func execute(_ action: REAPIDigest, timeout: Duration, skipCacheLookup: Bool = false) async throws(RemoteCallError) -> ExecutionWatch.Outcome {
        try await RemoteThreads.run {
            var request = Build_Bazel_Remote_Execution_V2_ExecuteRequest()
            request.instanceName = connection.endpoint.instance
            request.actionDigest = action
            request.digestFunction = .sha256
            request.skipCacheLookup = skipCacheLookup
            var options = connection.options()
            options.timeout = timeout
            // Shared with the stream's handler, so a stream that breaks still left the operation's name.
            let progress = Mutex(ExecutionWatch())
            do {
                try await execution.execute(request, metadata: connection.metadata, options: options) { response in
                    for try await operation in response.messages where progress.withLock({ $0.receive(operation) }) != nil { break }
                }
            } catch {
                let watch = progress.withLock { $0 }
                guard watch.outcome == nil, watch.operationName != nil else {
                    if let outcome = watch.outcome { return outcome }
                    throw RemoteCallError("Execute", error)
                }
                return try await wait(watch, timeout: timeout)
            }
            let watch = progress.withLock { $0 }
            if let outcome = watch.outcome { return outcome }
            return try await wait(watch, timeout: timeout)
        }
    }

    /// Follows an operation whose stream ended before it was done.
    private func wait(_ started: ExecutionWatch, timeout: Duration) async throws(RemoteCallError) -> ExecutionWatch.Outcome {
        guard let name = started.operationName else {
            throw RemoteCallError("Execute: the stream ended before the action was done")
        }
        var request = Build_Bazel_Remote_Execution_V2_WaitExecutionRequest()
        request.name = name
        var options = connection.options()
        options.timeout = timeout
        let watch: ExecutionWatch
        do {
            watch = try await execution.waitExecution(request, metadata: connection.metadata, options: options) { response in
                var watch = started
                for try await operation in response.messages where watch.receive(operation) != nil { break }
                return watch
            }
        } catch {
            throw RemoteCallError("WaitExecution \(name)", error)
        }
        guard let outcome = watch.outcome else {
            throw RemoteCallError("WaitExecution \(name): the stream ended before the action was done")
        }
        return outcome
    }
}
