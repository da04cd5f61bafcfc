import Synchronization
import TesseraCore

/// Documents whose render was stopped at its time limit in this process: the other scales of the
/// same file fail at once with the same reason, so a hostile vector costs its asset one time
/// limit, not one per scale (issue 54: a PDF cost 36 s over three scales with a 10 s limit).
enum OverTimeDocuments {
    private static let known = Mutex<Set<ContentHash>>([])

    static func remember(_ bytes: [UInt8]) {
        let hash = ContentHash.of(bytes)
        known.withLock { _ = $0.insert(hash) }
    }

    /// Throws the time-limit error when this document already ran out of time.
    static func check(_ bytes: [UInt8], format: VectorFormat, path: String?) throws(TesseraError) {
        let hash = ContentHash.of(bytes)
        guard known.withLock({ $0.contains(hash) }) else { return }
        throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                           reason: "\(format.displayName): render stopped: over its time limit (at another scale of this file)")
    }

    static func error(format: VectorFormat, seconds: Double, path: String?) -> TesseraError {
        TesseraError(.limitExceeded, file: path, origin: .rasterize,
                     reason: "\(format.displayName): render stopped: over its time limit of \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s (stages.rasterize.render-seconds)")
    }
}
