import Foundation
import Synchronization
import TesseraCore

/// The idle `PDFWorker`s of this process: a request takes one (or starts one), and gives it back
/// unless it died, was killed at its time limit or has served its share. As many workers run as
/// requests run at once, which the engine's scheduler bounds.
enum PDFWorkerPool {
    /// A worker retires after this many requests, so what MuPDF keeps between documents (font
    /// and glyph caches, fragmentation) never grows without end.
    static let requestsPerWorker = 256

    private static let idle = Mutex<[PDFWorker]>([])

    /// Runs `body` with a worker whose limits are `limits`' (workers differ only by those).
    /// `fresh`: a new worker, never one that served before (a retry after a worker died).
    static func withWorker<T>(tool: String, limiter: String, limits: VectorLimits, fresh: Bool = false,
                              _ body: (PDFWorker) throws(TesseraError) -> T) throws(TesseraError) -> T {
        let (addressSpace, cpu) = bounds(limits)
        let taken = fresh ? nil : idle.withLock { workers -> PDFWorker? in
            guard let index = workers.firstIndex(where: { $0.addressSpace == addressSpace && $0.cpuSeconds == cpu }) else { return nil }
            return workers.remove(at: index)
        }
        let worker: PDFWorker
        if let taken { worker = taken } else {
            worker = try PDFWorker(tool: tool, limiter: limiter, addressSpace: addressSpace, cpuSeconds: cpu)
        }
        defer {
            if worker.isAlive, worker.served < requestsPerWorker {
                idle.withLock { $0.append(worker) }
            } else {
                worker.stop()
            }
        }
        return try body(worker)
    }

    /// The worker's address space (its start, MuPDF's own allowance, and the largest bitmap the
    /// pixel limit lets through, twice: the page and the writer's copy) and CPU seconds over its
    /// whole life (each request also has its wall-clock limit).
    static func bounds(_ limits: VectorLimits) -> (addressSpace: Int, cpuSeconds: Int) {
        let addressSpace = PDFProcessRenderer.baseAddressSpace + limits.maxRendererBytes + 2 * limits.maxPixels * 4
        let cpu = max(1, Int(limits.renderSeconds.rounded(.up))) * requestsPerWorker
        return (addressSpace, cpu)
    }
}
