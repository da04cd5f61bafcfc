import Foundation
import Synchronization
import TesseraCore

/// PDF through Debian's `mutool draw` (mupdf-tools) run as a separate process: the default build's
/// PDF renderer. Tessera links nothing of MuPDF (AGPL-3.0-or-later) here: it hands the tool a file
/// and reads pixels back from a pipe, so the binary stays Apache-2.0 (docs/vectors.md).
///
/// Each render runs under `prlimit` (address space and CPU seconds) and a wall-clock kill, so a
/// hostile PDF (a huge page, a content-stream loop, deep nesting) fails its own asset within the
/// limits and never takes the build down. The answer is straight-alpha RGBA as PAM on stdout;
/// anything else — a signal, a non-zero exit, an `error:` or `repairing` line on stderr, a header
/// or length that is not exactly the size asked — fails the asset, as the in-process renderer does.
enum PDFProcessRenderer {
    /// `mutool`, from `TESSERA_MUTOOL`, else the first on `PATH`; nil when there is none.
    static let tool: String? = {
        if let explicit = ProcessInfo.processInfo.environment["TESSERA_MUTOOL"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map { "\($0)/mutool" } + ["/usr/bin/mutool"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `prlimit` from util-linux (Debian's essential set), which sets the limits before `exec`.
    static let limiter: String? = ["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { tool != nil && limiter != nil }

    /// The tool's version line, for `tessera version` and cache keys (`mutool version 1.21.1`).
    static let version: String? = {
        guard let tool, let run = try? run([tool, "-v"], limits: VectorLimits(), bitmapBytes: 0, path: nil) else { return nil }
        let text = String(decoding: run.stdout + run.stderr, as: UTF8.self)
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }()

    /// Address space the tool may map besides the bitmap: its own start needs about 64 MiB.
    static let baseAddressSpace = 64 << 20

    static func describe(_ bytes: [UInt8], limits: VectorLimits, path: String?) throws(TesseraError) -> (page: PageSize, pageCount: Int) {
        guard let tool else { throw TesseraError(.configuration, file: path, stage: .rasterize, reason: unavailableReason) }
        return try withDocument(bytes, path: path) { (file) throws(TesseraError) in
            let count = try run([tool, "show", file, "trailer/Root/Pages/Count"], limits: limits, bitmapBytes: 0, path: path)
            try check(count, path: path)
            let pageCount = Int(String(decoding: count.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
            // `bbox` resolves inherited and rotated boxes as a render would, and prints a line.
            let bounds = try run([tool, "draw", "-q", "-F", "bbox", "-o", "-", file, "1"], limits: limits, bitmapBytes: 0, path: path)
            try check(bounds, path: path, tolerateSkippedOperators: true)
            let text = String(decoding: bounds.stdout, as: UTF8.self)
            guard let box = text.range(of: "mediabox=\""),
                  let end = text[box.upperBound...].firstIndex(of: "\"") else {
                throw TesseraError(.invalidInput, file: path, stage: .rasterize, reason: "PDF: mutool gave no page box")
            }
            let numbers = text[box.upperBound..<end].split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 4 else {
                throw TesseraError(.invalidInput, file: path, stage: .rasterize, reason: "PDF: unreadable page box '\(text[box.upperBound..<end])'")
            }
            return (PageSize(width: numbers[2] - numbers[0], height: numbers[3] - numbers[1]), max(1, pageCount))
        }
    }

    static func render(_ bytes: [UInt8], width: Int, height: Int, limits: VectorLimits,
                       path: String?) throws(TesseraError) -> Bitmap {
        guard let tool else { throw TesseraError(.configuration, file: path, stage: .rasterize, reason: unavailableReason) }
        let pixels = width * height * 4
        return try withDocument(bytes, path: path) { (file) throws(TesseraError) in
            // `-f` fits the page to exactly W × H (without it the aspect ratio may cost a pixel).
            let drawn = try run([tool, "draw", "-q", "-c", "rgba", "-F", "pam", "-o", "-", "-w", String(width), "-h", String(height),
                                 "-f", file, "1"], limits: limits, bitmapBytes: pixels, path: path)
            try check(drawn, path: path, tolerateSkippedOperators: true)
            let body = try PAMImage.pixels(drawn.stdout, width: width, height: height, path: path)
            var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8, alpha: .straight,
                                             colorSpace: .unspecified)
            bitmap.pixels.withUnsafeMutableBufferPointer { target in
                drawn.stdout.withUnsafeBufferPointer { source in
                    _ = memcpy(target.baseAddress!, source.baseAddress! + body, pixels)
                }
            }
            return bitmap
        }
    }

    static let unavailableReason = "no PDF renderer: install Debian's mupdf-tools (`mutool`, run as a separate process), or build with `--traits PDFRasterizing` (docs/vectors.md)"

    struct Run {
        var status: Int32
        var signalled: Bool
        var timedOut: Bool
        var stdout: [UInt8]
        var stderr: [UInt8]
    }

    /// Fails on a signal, a time-out, a non-zero exit, or an `error:`/`repairing` line: mutool
    /// exits 0 after repairing a damaged file, and 1 after content errors with a full image.
    private static func check(_ run: Run, path: String?, tolerateSkippedOperators: Bool = false) throws(TesseraError) {
        let messages = String(decoding: run.stderr.prefix(4096), as: UTF8.self)
            .split(separator: "\n").map(String.init)
            .filter { !$0.contains("ICC support is not available") }
        // An operator MuPDF does not know (`nan` written by a broken exporter) is skipped, as
        // Core Graphics skips it; the page is otherwise drawn whole. Only that, with a complete
        // image, is let through.
        if tolerateSkippedOperators, run.status == 1, !run.signalled, !run.timedOut,
           messages.allSatisfy({ $0.hasPrefix("error: unknown keyword") || $0.hasPrefix("warning: ") }),
           messages.contains(where: { $0.hasPrefix("error: unknown keyword") }) {
            return
        }
        if run.timedOut {
            throw TesseraError(.limitExceeded, file: path, stage: .rasterize, reason: "PDF: render stopped: over its time limit")
        }
        if run.signalled || messages.contains(where: { $0.contains("malloc") || $0.contains("out of memory") }) {
            throw TesseraError(.limitExceeded, file: path, stage: .rasterize,
                               reason: "PDF: render stopped: over its memory or CPU limit" + (messages.first.map { " (\($0))" } ?? ""))
        }
        let refusal = messages.first { $0.hasPrefix("error:") || $0.contains("repairing") }
        guard run.status == 0, refusal == nil else {
            throw TesseraError(.invalidInput, file: path, stage: .rasterize,
                               reason: "PDF: " + (refusal ?? messages.first ?? "mutool exited with status \(run.status)"))
        }
    }

    /// The document in a private temporary file for the tool to read, removed afterwards.
    private static func withDocument<T>(_ bytes: [UInt8], path: String?,
                                        _ body: (String) throws(TesseraError) -> T) throws(TesseraError) -> T {
        let file = "\(NSTemporaryDirectory())/tessera-pdf-\(UUID().uuidString).pdf"
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw TesseraError(.io, file: path, stage: .rasterize, reason: "cannot write a temporary copy for the PDF renderer")
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try body(file)
    }

    /// Runs `arguments` under `prlimit`, with no input and an empty environment, killed after the
    /// render's time limit plus two seconds of start-up.
    private static func run(_ arguments: [String], limits: VectorLimits, bitmapBytes: Int,
                            path: String?) throws(TesseraError) -> Run {
        guard let limiter else { throw TesseraError(.configuration, file: path, stage: .rasterize, reason: unavailableReason) }
        let addressSpace = baseAddressSpace + limits.maxRendererBytes + 2 * bitmapBytes
        let cpu = max(1, Int(limits.renderSeconds.rounded(.up)))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: limiter)
        process.arguments = ["--as=\(addressSpace)", "--cpu=\(cpu)", "--"] + arguments
        process.environment = [:]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw TesseraError(.io, file: path, stage: .rasterize, reason: "cannot start \(arguments[0]): \(error)")
        }
        let timedOut = Mutex(false)
        let deadline = DispatchWorkItem {
            if process.isRunning {
                timedOut.withLock { $0 = true }
                kill(process.processIdentifier, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + limits.renderSeconds + 2, execute: deadline)
        // stderr is drained beside stdout, so a chatty failure cannot fill its pipe and stall.
        let stderrBytes = Mutex<[UInt8]>([])
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            stderrBytes.withLock { $0 = [UInt8](data.prefix(65536)) }
            drained.signal()
        }
        let stdout = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        drained.wait()
        deadline.cancel()
        return Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                   timedOut: timedOut.withLock { $0 }, stdout: stdout, stderr: stderrBytes.withLock { $0 })
    }
}

/// A PAM (`P7`) image's header, checked against the size asked for.
enum PAMImage {
    /// The offset of the pixels in `bytes`: an `RGB_ALPHA` image of exactly `width` × `height`
    /// at 8 bits, with exactly that many pixel bytes after the header.
    static func pixels(_ bytes: [UInt8], width: Int, height: Int, path: String?) throws(TesseraError) -> Int {
        let marker = Array("ENDHDR\n".utf8)
        let head = bytes.prefix(512)
        guard head.starts(with: Array("P7\n".utf8)),
              let end = (0...max(0, head.count - marker.count)).first(where: { Array(head[$0..<$0 + marker.count]) == marker })
        else {
            throw TesseraError(.invalidInput, file: path, stage: .rasterize, reason: "PDF: the renderer's answer is not a PAM image")
        }
        var fields: [String: String] = [:]
        for line in String(decoding: head[..<end], as: UTF8.self).split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let body = end + marker.count
        guard fields["WIDTH"] == String(width), fields["HEIGHT"] == String(height), fields["DEPTH"] == "4",
              fields["MAXVAL"] == "255", fields["TUPLTYPE"] == "RGB_ALPHA", bytes.count - body == width * height * 4 else {
            throw TesseraError(.invalidInput, file: path, stage: .rasterize,
                               reason: "PDF: the renderer drew \(fields["WIDTH"] ?? "?")×\(fields["HEIGHT"] ?? "?") (\(bytes.count - body) bytes), not the \(width)×\(height) asked for")
        }
        return body
    }
}
