import Foundation
import TesseraCore

/// SVG through librsvg (LGPL-2.1-or-later) in `tessera-svg-worker`, a process of its own, pooled
/// like the PDF workers: a panic in librsvg (`feConvolveMatrix` with a huge order aborts it), a
/// filter that would render for a day (`feTurbulence` with 100,000,000 octaves) or memory past
/// the limit costs that asset alone, within `VectorLimits.renderSeconds`, never the build.
///
/// Documents are opened from memory with no base file. librsvg resolves every href against the
/// base file and, without one, loads nothing but `data:` URLs and the document's own fragments:
/// no file outside the document is read and no network request is made (the tests serve one on
/// loopback and check it is never asked). librsvg's XML limits stay on (entity loops, nesting
/// deeper than 256, more than 500,000 referenced elements are errors).
enum SVGProcessRenderer {
    /// The worker program: `TESSERA_SVG_WORKER`, else `tessera-svg-worker` beside the running
    /// executable (the release's `bin/`, the build folder for `swift build` and the tests), else
    /// the first on `PATH`; nil when there is none.
    static let program: String? = {
        let name = "tessera-svg-worker"
        if let explicit = ProcessInfo.processInfo.environment["TESSERA_SVG_WORKER"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        var folders: [String] = []
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append((running as NSString).deletingLastPathComponent)
        }
        folders.append((CommandLine.arguments[0] as NSString).deletingLastPathComponent)
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private static let workers = WorkerPool<SVGWorker>()

    /// librsvg's version as the worker loads it, for `tessera version` and cache keys.
    static let version: String = {
        guard program != nil, WorkerProcess.limiter != nil else { return "librsvg: no SVG worker (\(unavailableReason))" }
        do {
            return try workers.withWorker(limits: bounds(VectorLimits()), start: startWorker(VectorLimits())) { $0.libraryVersion }
        } catch {
            return "librsvg: the SVG worker did not start"
        }
    }()

    static let unavailableReason = "no SVG renderer: tessera-svg-worker is not beside tessera or on PATH (TESSERA_SVG_WORKER names it)"

    /// Address space the worker may map besides its bitmaps: librsvg's libraries, GLib's and
    /// Rust's threads and heaps start it at about 200 MiB.
    static let baseAddressSpace = 512 << 20

    /// The SVG's size in CSS pixels (which Xcode takes as points): width and height, else the viewBox.
    static func measure(_ bytes: [UInt8], limits: VectorLimits, path: String?) throws(TesseraError) -> PageSize {
        let answer = try ask(.measure, bytes, answerBytes: 16, limits: limits, path: path)
        let size = answer.withUnsafeBytes { ($0.loadUnaligned(as: Double.self), $0.loadUnaligned(fromByteOffset: 8, as: Double.self)) }
        guard size.0.isFinite, size.1.isFinite, size.0 > 0, size.1 > 0 else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                               reason: "SVG size is \(size.0)×\(size.1); it needs a positive width and height or viewBox")
        }
        return PageSize(width: size.0, height: size.1)
    }

    /// The whole SVG drawn into exactly `width` × `height` pixels of straight-alpha RGBA8.
    static func render(_ bytes: [UInt8], width: Int, height: Int, limits: VectorLimits,
                       path: String?) throws(TesseraError) -> Bitmap {
        let pixels = try ask(.render, bytes, width: width, height: height, answerBytes: width * height * 4,
                             limits: limits, path: path)
        return try Bitmap(width: width, height: height, format: .rgba8, alpha: .straight, colorSpace: .sRGB, pixels: pixels)
    }

    /// Asks a pooled worker; a worker that crashed on a signal other than the limits' or whose
    /// stream desynchronised gets the request once more on a fresh worker (its earlier requests,
    /// not this file, may be what failed), and a file that fails a fresh worker too fails its asset.
    private static func ask(_ request: SVGWorker.Request, _ bytes: [UInt8], width: Int = 0, height: Int = 0,
                            answerBytes: Int, limits: VectorLimits, path: String?) throws(TesseraError) -> [UInt8] {
        guard program != nil, WorkerProcess.limiter != nil else {
            throw TesseraError(.configuration, file: path, origin: .rasterize, reason: unavailableReason)
        }
        try OverTimeDocuments.check(bytes, format: .svg, path: path)
        var outcome = SVGWorker.Outcome.died(signal: nil)
        for fresh in [false, true] {
            outcome = try workers.withWorker(limits: bounds(limits), fresh: fresh, start: startWorker(limits)) { worker in
                worker.ask(request, document: bytes, width: width, height: height, answerBytes: answerBytes,
                           seconds: limits.renderSeconds + 2)
            }
            switch outcome {
            case .answered(let answer): return answer
            case .died(let signal) where signal.map({ !WorkerProcess.limitSignals.contains($0) }) ?? true: continue
            case .desynchronised: continue
            case .refused, .timedOut, .died: break
            }
            break
        }
        throw failure(outcome, limits: limits, bytes: bytes, path: path)
    }

    private static func failure(_ outcome: SVGWorker.Outcome, limits: VectorLimits, bytes: [UInt8], path: String?) -> TesseraError {
        switch outcome {
        case .answered: return TesseraError(.internalFailure, file: path, origin: .rasterize, reason: "SVG: answered")
        case .refused(let text):
            let kind: TesseraError.Kind = text.contains("exceeded") || text.contains("Excessive") ? .limitExceeded : .invalidInput
            return TesseraError(kind, file: path, origin: .rasterize, reason: "SVG: \(text)")
        case .timedOut:
            OverTimeDocuments.remember(bytes)
            return OverTimeDocuments.error(format: .svg, seconds: limits.renderSeconds, path: path)
        case .died(let signal?) where WorkerProcess.limitSignals.contains(signal):
            return TesseraError(.limitExceeded, file: path, origin: .rasterize, reason: "SVG: render stopped: over its CPU limit")
        case .died(let signal):
            return TesseraError(.invalidInput, file: path, origin: .rasterize,
                                reason: "SVG: librsvg crashed on this file (\(signal.map { "signal \($0)" } ?? "it exited"), twice, on a fresh worker too: a panic or its memory limit)")
        case .desynchronised(let what):
            return TesseraError(.invalidInput, file: path, origin: .rasterize,
                                reason: "SVG: the renderer's answer stream held \(what), twice; the worker was stopped and nothing of its answer used")
        }
    }

    private static func startWorker(_ limits: VectorLimits) -> () throws(TesseraError) -> SVGWorker {
        { () throws(TesseraError) -> SVGWorker in
            guard let program, let limiter = WorkerProcess.limiter else {
                throw TesseraError(.configuration, origin: .rasterize, reason: unavailableReason)
            }
            let bounds = bounds(limits)
            return try SVGWorker(program: [program], limiter: limiter, addressSpace: bounds.addressSpace, cpuSeconds: bounds.cpuSeconds)
        }
    }

    /// The worker's address space (its start, librsvg's allowance for parsing and filters, and
    /// the largest bitmap the pixel limit lets through, twice: cairo's surface and a filter's)
    /// and CPU seconds over its life.
    static func bounds(_ limits: VectorLimits) -> (addressSpace: Int, cpuSeconds: Int) {
        (baseAddressSpace + limits.maxRendererBytes + 2 * limits.maxPixels * 4, WorkerPool<SVGWorker>.cpuSeconds(limits))
    }
}
