import Foundation
import TesseraCore

/// The threads every gRPC call's async work runs on (`NetworkThreads`), instead of Swift's
/// cooperative pool.
///
/// The build cache is synchronous and is called from job and lookup threads, some of them
/// cooperative ones (`finishRun`), so a call is bridged by blocking its caller until the async
/// gRPC work is done (`RemoteConnection.wait`). Had that work needed the cooperative pool (two
/// threads on a two-core machine), two blocked callers would have left it no thread to finish on:
/// a deadlocked build. gRPC's tasks are all structured, so they inherit this executor preference
/// and never need the pool; the sockets themselves are NIO's event loops.
enum RemoteThreads {
    /// One set for the process: gRPC work is short bursts of (de)serialising between socket reads.
    static let shared = NetworkThreads(count: 2, name: "tessera.grpc")
}

extension RemoteThreads {
    /// Runs `body`, and the gRPC work its calls start as child tasks, on these threads.
    ///
    /// A call made from the cooperative pool would otherwise do its (de)serialising and race its
    /// deadline there: with the pool's threads held by blocking work (two on a two-core machine),
    /// an answer that had arrived would wait, and the call fail as `deadlineExceeded`, though the
    /// server answered in milliseconds. Every public call of the clients goes through here.
    /// (`body` throws only `RemoteCallError`s; a closure's typed throws is not inferred, so the
    /// conversion is spelled here once rather than at every call.)
    static func run<T>(_ body: () async throws -> T) async throws(RemoteCallError) -> T {
        do {
            return try await withTaskExecutorPreference(shared, operation: body)
        } catch let error as RemoteCallError {
            throw error
        } catch {
            throw RemoteCallError("a remote call", error)
        }
    }
}
