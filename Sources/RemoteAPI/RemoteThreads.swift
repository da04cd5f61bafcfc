import Foundation

/// The threads every gRPC call's async work runs on, instead of Swift's cooperative pool.
///
/// The build cache is synchronous and is called from job and lookup threads, some of them
/// cooperative ones (`finishRun`), so a call is bridged by blocking its caller until the async
/// gRPC work is done (`RemoteConnection.wait`). Had that work needed the cooperative pool (two
/// threads on a two-core machine), two blocked callers would have left it no thread to finish on:
/// a deadlocked build. gRPC's tasks are all structured, so they inherit this executor preference
/// and never need the pool; the sockets themselves are NIO's event loops.
final class RemoteThreads: TaskExecutor, @unchecked Sendable {
    /// One set for the process: gRPC work is short bursts of (de)serialising between socket reads.
    static let shared = RemoteThreads(count: 2)

    private let condition = NSCondition()
    /// Jobs waiting, oldest first from `head` (a queue without per-dequeue copying).
    private var waiting: [UnownedJob] = []
    private var head = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { self.serve() }
            thread.name = "tessera.grpc.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        waiting.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while head == waiting.count { condition.wait() }
            let job = waiting[head]
            head += 1
            if head > 1024, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
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
