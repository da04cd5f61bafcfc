import Foundation

/// Threads of their own that async network work runs on, instead of Swift's cooperative pool
/// (`withTaskExecutorPreference`): the work and the deadline racing it then run whatever holds
/// the pool.
///
/// The pool has one thread per core, two on a two-core machine. Work that blocks them (a
/// synchronous caller waiting for an async call, CPU-bound jobs, a test waiting for a process)
/// used to hold an answer that had arrived until the call's deadline had passed, and the call
/// then failed as if the server were down: gRPC's `deadlineExceeded`, PostgreSQL's "did not
/// answer". Structured child tasks inherit the preference; sockets stay on NIO's event loops.
public final class NetworkThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs waiting, oldest first from `head` (a queue without per-dequeue copying).
    private var waiting: [UnownedJob] = []
    private var head = 0

    /// Starts `count` threads named `name.0`, `name.1`, …, which live as long as the process.
    public init(count: Int, name: String) {
        for index in 0..<count {
            let thread = Thread { self.serve() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
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
