import Foundation
import Synchronization
import TesseraCore

/// A renderer worker a pool can keep between requests.
protocol PooledWorker: AnyObject, Sendable {
    var process: WorkerProcess { get }
}

/// The idle workers of one renderer in this process: a request takes one (or starts one), and
/// gives it back unless it died, was killed at its time limit or has served its share. As many
/// workers run as requests run at once, which the engine's scheduler bounds.
final class WorkerPool<Worker: PooledWorker>: Sendable {
    /// A worker retires after this many requests, so what a renderer keeps between documents
    /// (font and glyph caches, fragmentation) never grows without end.
    static var requestsPerWorker: Int { 256 }

    private let idle = Mutex<[Worker]>([])

    /// Runs `body` with a worker started under `limits` (workers differ only by those).
    /// `fresh`: a new worker, never one that served before (a retry after a worker died).
    func withWorker<T>(limits: (addressSpace: Int, cpuSeconds: Int), fresh: Bool = false,
                       start: () throws(TesseraError) -> Worker,
                       _ body: (Worker) throws(TesseraError) -> T) throws(TesseraError) -> T {
        let taken = fresh ? nil : idle.withLock { workers -> Worker? in
            guard let index = workers.firstIndex(where: {
                $0.process.addressSpace == limits.addressSpace && $0.process.cpuSeconds == limits.cpuSeconds
            }) else { return nil }
            return workers.remove(at: index)
        }
        let worker: Worker
        if let taken { worker = taken } else { worker = try start() }
        defer {
            if worker.process.isAlive, worker.process.served < Self.requestsPerWorker {
                idle.withLock { $0.append(worker) }
            } else {
                worker.process.stop()
            }
        }
        return try body(worker)
    }

    /// The CPU seconds a worker may use over its whole life: each request's wall-clock limit
    /// times the requests it may serve (each request also has its wall-clock kill).
    static func cpuSeconds(_ limits: VectorLimits) -> Int {
        max(1, Int(limits.renderSeconds.rounded(.up))) * requestsPerWorker
    }
}
