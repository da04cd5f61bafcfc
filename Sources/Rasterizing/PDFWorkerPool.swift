import TesseraCore

/// The `PDFWorker`s of this process.
enum PDFWorkerPool {
    private static let workers = WorkerPool<PDFWorker>()

    /// Runs `body` with a pooled worker whose limits are `limits`'.
    /// `fresh`: a new worker, never one that served before (a retry after a worker died).
    static func withWorker<T>(tool: String, limiter: String, limits: VectorLimits, fresh: Bool = false,
                              _ body: (PDFWorker) throws(TesseraError) -> T) throws(TesseraError) -> T {
        let bounds = bounds(limits)
        return try workers.withWorker(limits: bounds, fresh: fresh, start: { () throws(TesseraError) in
            try PDFWorker(tool: tool, limiter: limiter, addressSpace: bounds.addressSpace, cpuSeconds: bounds.cpuSeconds)
        }, body)
    }

    /// The worker's address space (its start, MuPDF's own allowance, and the largest bitmap the
    /// pixel limit lets through, twice: the page and the writer's copy) and CPU seconds.
    static func bounds(_ limits: VectorLimits) -> (addressSpace: Int, cpuSeconds: Int) {
        let addressSpace = PDFProcessRenderer.baseAddressSpace + limits.maxRendererBytes + 2 * limits.maxPixels * 4
        return (addressSpace, WorkerPool<PDFWorker>.cpuSeconds(limits))
    }
}
