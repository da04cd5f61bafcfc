import Foundation
import Synchronization
import TesseraCore

/// PDF through Debian's `mutool` (mupdf-tools) run as a separate process: the default build's PDF
/// renderer. Tessera links nothing of MuPDF (AGPL-3.0-or-later) here: it hands the tool a file and
/// reads pixels back as a PAM file, so the binary stays Apache-2.0 (docs/vectors.md).
///
/// The tool runs as pooled `PDFWorker`s (`mutool run`, one request at a time) under `prlimit`
/// (address space, CPU seconds), and each request under a wall-clock kill, so a hostile PDF (a
/// huge page, a content-stream loop, deep nesting) fails its own asset within the limits and never
/// takes the build down. Anything but a whole answer — a killed worker, an `error` answer, an
/// `error:` or `repairing` message while drawing, a header or length that is not exactly the size
/// asked — fails the asset, as the in-process renderer does. A file MuPDF repairs while opening it
/// (no `startxref`, a broken cross-reference table) is drawn, as `mutool draw` draws it: the
/// repair's messages are not failures, and `describe` says what was repaired for a warning.
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


    static var isAvailable: Bool {
        tool != nil && WorkerProcess.limiter != nil && FileManager.default.isExecutableFile(atPath: PDFWorker.lineBuffering)
    }

    /// The tool's version line, for `tessera version` and cache keys (`mutool version 1.21.1`).
    static let version: String? = {
        guard let tool else { return nil }
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-v"]
        process.environment = [:]
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }()

    /// Address space the tool may map besides the bitmap: its own start needs about 64 MiB.
    static let baseAddressSpace = 64 << 20

    /// The first page's size, the page count, and what MuPDF repaired to open the file (the
    /// first error its repair answered: `cannot find startxref`), nil when it opened whole.
    static func describe(_ bytes: [UInt8], limits: VectorLimits,
                         path: String?) throws(TesseraError) -> (page: PageSize, pageCount: Int, repair: String?) {
        let (words, repair) = try withExchange(bytes, outputBytes: 0, path: path) { (folder) throws(TesseraError) in
            try ask(["describe", "\(folder)/document.pdf"], of: bytes, limits: limits, path: path)
        }
        let numbers = words.prefix(5).compactMap { Double($0) }
        guard words.count == 6, numbers.count == 5 else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize, reason: "PDF: the renderer gave no page box ('\(words.joined(separator: " "))')")
        }
        return (PageSize(width: numbers[3] - numbers[1], height: numbers[4] - numbers[2]), max(1, Int(numbers[0])), repair)
    }

    static func render(_ bytes: [UInt8], width: Int, height: Int, limits: VectorLimits,
                       path: String?) throws(TesseraError) -> Bitmap {
        let pixels = width * height * 4
        let drawn = try withExchange(bytes, outputBytes: pixels, path: path) { (folder) throws(TesseraError) -> [UInt8] in
            // The writer numbers its pages: page 1 of `render%d.pam` is `render1.pam`.
            let request = ["render", "\(folder)/document.pdf", String(width), String(height), "\(folder)/render%d.pam"]
            _ = try ask(request, of: bytes, limits: limits, path: path)
            if let drawn = FileManager.default.contents(atPath: "\(folder)/render1.pam") { return Array(drawn) }
            // An answer without its image is the worker's fault, not the file's: once more, afresh.
            _ = try ask(request, of: bytes, limits: limits, path: path, fresh: true)
            guard let drawn = FileManager.default.contents(atPath: "\(folder)/render1.pam") else {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize, reason: "PDF: the renderer wrote no image")
            }
            return Array(drawn)
        }
        let body = try PAMImage.pixels(drawn, width: width, height: height, path: path)
        var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8, alpha: .straight,
                                         colorSpace: .unspecified)
        bitmap.pixels.withUnsafeMutableBufferPointer { target in
            drawn.withUnsafeBufferPointer { source in
                _ = memcpy(target.baseAddress!, source.baseAddress! + body, pixels)
            }
        }
        return bitmap
    }

    /// Asks a pooled worker and returns the answer's words after `ok` and what was repaired to
    /// open the file (nil: nothing), or throws what went wrong.
    /// A worker that crashed (a signal other than the limits') or whose stream held a forged
    /// answer gets the request again on a fresh worker once: a long-lived worker's state (or the
    /// document before), not the file, may be what failed; a file that fails a fresh worker too
    /// fails its asset.
    private static func ask(_ request: [String], of document: [UInt8], limits: VectorLimits, path: String?,
                            fresh: Bool = false) throws(TesseraError) -> (words: [String], repair: String?) {
        guard let tool, let limiter = WorkerProcess.limiter, isAvailable else { throw TesseraError(.configuration, file: path, origin: .rasterize, reason: unavailableReason) }
        try OverTimeDocuments.check(document, format: .pdf, path: path)
        var answer = try PDFWorkerPool.withWorker(tool: tool, limiter: limiter, limits: limits, fresh: fresh) { worker in
            worker.ask(request, seconds: limits.renderSeconds + 2)
        }
        // A forged answer too: it may have been printed for the request before, on this worker.
        if !fresh, !answer.timedOut, answer.forged || answer.signal.map({ !WorkerProcess.limitSignals.contains($0) }) == true {
            answer = try PDFWorkerPool.withWorker(tool: tool, limiter: limiter, limits: limits, fresh: true) { worker in
                worker.ask(request, seconds: limits.renderSeconds + 2)
            }
        }
        if answer.timedOut {
            OverTimeDocuments.remember(document)
            throw OverTimeDocuments.error(format: .pdf, seconds: limits.renderSeconds, path: path)
        }
        let repair = try check(answer, path: path, tolerateSkippedOperators: request[0] == "render")
        return (Array(answer.words?.dropFirst() ?? []), repair)
    }

    /// A private folder (mode 0700) holding the document as `document.pdf`, where the tool also
    /// writes its render; removed afterwards. Small exchanges go through `/dev/shm` (memory), so
    /// an icon's render costs no disk writes; large ones, or when it is missing or nearly full (a
    /// container's is often 64 MiB), through the temporary directory.
    private static func withExchange<T>(_ bytes: [UInt8], outputBytes: Int, path: String?,
                                        _ body: (String) throws(TesseraError) -> T) throws(TesseraError) -> T {
        let needed = bytes.count + outputBytes + 4096
        let root = needed <= memoryExchangeLimit && freeBytes(at: memoryRoot) > 4 * needed ? memoryRoot : NSTemporaryDirectory()
        let folder = "\(root)/tessera-pdf-\(UUID().uuidString)"
        guard mkdir(folder, 0o700) == 0 else {
            throw TesseraError(.io, file: path, origin: .rasterize, reason: "cannot make a temporary folder for the PDF renderer in \(root): \(String(cString: strerror(errno)))")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard FileManager.default.createFile(atPath: "\(folder)/document.pdf", contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw TesseraError(.io, file: path, origin: .rasterize, reason: "cannot write a temporary copy for the PDF renderer in \(root)")
        }
        return try body(folder)
    }

    static let memoryRoot = "/dev/shm"
    /// Exchanges up to this size (a 1,400 × 1,400 render) may go through memory.
    static let memoryExchangeLimit = 8 << 20

    private static func freeBytes(at folder: String) -> Int {
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0, access(folder, W_OK | X_OK) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }


    static let unavailableReason = "no PDF renderer: install Debian's mupdf-tools (`mutool`, run as a separate process), or build with `--traits PDFRasterizing` (docs/vectors.md)"

    /// Fails on a killed worker (its time or memory limit), an `error` answer, or an `error:` line
    /// of the tool's while drawing: MuPDF draws what it can of a damaged page and only says so.
    /// A file repaired while opening is not a failure (`mutool draw` repairs and draws it, as
    /// Apple's renderer does): the first error the repair answered is returned, for the warning.
    private static func check(_ answer: PDFWorker.Answer, path: String?,
                              tolerateSkippedOperators: Bool) throws(TesseraError) -> String? {
        let known = { (line: String) in !line.contains("ICC support is not available") }
        let repaired = answer.words?.first == "ok" && answer.words?.last == "true"
        // Opening a repaired file says what was broken (`error: cannot find startxref`) and that
        // it was repaired: those lines are the repair's, not the page's.
        let opening = answer.opening.filter(known)
        let messages = (repaired ? [] : opening) + answer.messages.filter(known)
        guard let words = answer.words else {
            if answer.forged {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                                   reason: "PDF: the renderer's answer stream held an answer that was not this file's (a document's content can make MuPDF print one); the worker was stopped and nothing of its answer used")
            }
            if answer.timedOut {
                throw TesseraError(.limitExceeded, file: path, origin: .rasterize, reason: "PDF: render stopped: over its time limit")
            }
            if let signal = answer.signal, !WorkerProcess.limitSignals.contains(signal) {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                                   reason: "PDF: the renderer crashed on this file (signal \(signal), twice, on a fresh worker too)")
            }
            throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                               reason: "PDF: render stopped: over its memory or CPU limit" + (messages.first.map { " (\($0))" } ?? ""))
        }
        if words.first == "error" {
            let reason = words.dropFirst().joined(separator: " ").replacingOccurrences(of: "Error: ", with: "")
            let overLimit = reason.contains("malloc") || reason.contains("out of memory") || messages.contains { $0.contains("malloc") }
            throw TesseraError(overLimit ? .limitExceeded : .invalidInput, file: path, origin: .rasterize,
                               reason: overLimit ? "PDF: render stopped: over its memory limit (\(reason))" : "PDF: \(reason)")
        }
        // An operator MuPDF does not know (`nan` written by a broken exporter) is skipped, as
        // Core Graphics skips it; the page is otherwise drawn whole. Only that is let through.
        let refusal = messages.first { line in
            (line.hasPrefix("error:") && !(tolerateSkippedOperators && line.hasPrefix("error: unknown keyword")))
                || line.contains("repairing")
        }
        if let refusal { throw TesseraError(.invalidInput, file: path, origin: .rasterize, reason: "PDF: " + refusal) }
        guard repaired else { return nil }
        let first = opening.first { $0.hasPrefix("error:") }.map { String($0.dropFirst("error:".count)).trimmingCharacters(in: .whitespaces) }
        return first ?? "a broken cross-reference table"
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
            throw TesseraError(.invalidInput, file: path, origin: .rasterize, reason: "PDF: the renderer's answer is not a PAM image")
        }
        var fields: [String: String] = [:]
        for line in String(decoding: head[..<end], as: UTF8.self).split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let body = end + marker.count
        guard fields["WIDTH"] == String(width), fields["HEIGHT"] == String(height), fields["DEPTH"] == "4",
              fields["MAXVAL"] == "255", fields["TUPLTYPE"] == "RGB_ALPHA", bytes.count - body == width * height * 4 else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                               reason: "PDF: the renderer drew \(fields["WIDTH"] ?? "?")×\(fields["HEIGHT"] ?? "?") (\(bytes.count - body) bytes), not the \(width)×\(height) asked for")
        }
        return body
    }
}
