import Foundation
import Synchronization
import TesseraCore

/// One `mutool run` process kept alive to serve many PDF requests, one at a time: the default
/// build's renderer without a process start per render (a start costs about 8 ms, a small icon's
/// render under 1 ms; Benchmarks/rasterize.sh).
///
/// Requests and answers are lines. The tool's own messages (`error: …`, `warning: …`) share the
/// answer stream (stderr is merged into stdout, stdout is line-buffered by `stdbuf`), so every
/// message a request caused arrives before its answer and is judged with it. A request that
/// overruns its time is answered by killing the process; a killed, crashed or worn worker is never
/// reused.
///
/// The stream carries what a document makes MuPDF print (names of missing objects, raw), so an
/// answer is believed only if it carries the request's own nonce, 128 random bits no document
/// can know: a line that looks like an answer without it is a forgery (a hostile PDF answering
/// other documents' requests, issue 54); the worker is then killed and its request failed.
final class PDFWorker: PooledWorker, @unchecked Sendable {
    /// What one request gave: the answer's words (nil when the worker died or was killed) and the
    /// tool's messages before it.
    struct Answer {
        var words: [String]?
        /// The tool's messages while drawing, after the document opened (all of them when it did
        /// not, or the worker died).
        var messages: [String]
        var timedOut: Bool
        /// The tool's messages while it opened the document and its first page: a repair's, when
        /// the answer says the file was repaired.
        var opening: [String] = []
        /// The signal that ended the worker, when it died on this request (a crash: SIGSEGV).
        var signal: Int32? = nil
        /// The stream held an answer that was not this request's: the worker was stopped.
        var forged = false
    }

    let process: WorkerProcess
    private var pending: [UInt8] = []

    /// Starts a worker under `prlimit` (address space, CPU seconds) and waits for it to be ready.
    init(tool: String, limiter: String, addressSpace: Int, cpuSeconds: Int) throws(TesseraError) {
        let script = "\(NSTemporaryDirectory())/tessera-pdf-worker-\(UUID().uuidString).js"
        guard FileManager.default.createFile(atPath: script, contents: Data(Self.script.utf8),
                                            attributes: [.posixPermissions: 0o600]) else {
            throw TesseraError(.io, origin: .rasterize, reason: "cannot write the PDF worker's script to \(NSTemporaryDirectory())")
        }
        // The script is read when the tool starts; it goes once the worker has answered.
        defer { try? FileManager.default.removeItem(atPath: script) }
        process = try WorkerProcess(program: [PDFWorker.lineBuffering, "-oL", tool, "run", script], limiter: limiter,
                                    addressSpace: addressSpace, cpuSeconds: cpuSeconds, mergingErrors: true)
        let hello = ask(["hello"], seconds: 10)
        guard hello.words == ["ready"] else {
            process.stop()
            throw TesseraError(.io, origin: .rasterize,
                               reason: "the PDF worker (\(tool) run) did not start" + (hello.messages.first.map { ": \($0)" } ?? ""))
        }
    }

    /// `stdbuf` from coreutils (Debian's essential set): without it the tool's answers would wait
    /// in a full stdio buffer.
    static let lineBuffering = "/usr/bin/stdbuf"

    /// Sends one request and reads up to its answer; kills the worker when `seconds` pass first.
    func ask(_ request: [String], seconds: Double) -> Answer {
        let nonce = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
        let line = Array(([nonce] + request).joined(separator: "\t").utf8 + [UInt8(ascii: "\n")])
        let (answer, timedOut) = process.timed(seconds: seconds) { () -> Answer? in
            guard process.send(line) else { return nil }
            var reader = PDFAnswerReader(nonce: nonce)
            while let text = readLine() {
                switch reader.read(text) {
                case .more: continue
                case .answered(let words):
                    return Answer(words: words, messages: reader.messages, timedOut: false, opening: reader.opening ?? [])
                case .forged:
                    // Something the document made the tool print: nothing more on this stream can be trusted.
                    return Answer(words: nil, messages: reader.allMessages, timedOut: false, forged: true)
                }
            }
            return Answer(words: nil, messages: reader.allMessages, timedOut: false)
        }
        if let answer, answer.words != nil {
            // Answered just as its time ran out: the answer stands, the killed worker goes.
            if timedOut { process.stop() }
            return answer
        }
        process.stop()
        var ended = answer ?? Answer(words: nil, messages: [], timedOut: false)
        ended.timedOut = timedOut
        if !ended.forged { ended.signal = process.endingSignal }
        return ended
    }

    /// The next line of the answer stream, nil at its end (the worker died or was killed).
    private func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            // A line without end is cut at 64 KiB: the tool's messages are short.
            if pending.count > 65536 { pending.removeAll() }
            let count = chunk.withUnsafeMutableBytes { process.receive(into: $0) }
            guard count > 0 else { return nil }
            pending += chunk[..<count]
        }
    }

    /// The worker's program, in MuPDF's JavaScript. `describe PATH` answers the page count, the
    /// first page's bounds (rotation and inherited boxes resolved, as a render sees them) and
    /// whether the file had to be repaired; `render PATH W H OUT` draws the first page fitted to
    /// exactly W × H pixels, RGBA with alpha, as PAM into OUT (the writer puts the page number
    /// before the extension), and answers whether it was repaired. Once the document and its
    /// first page are open, the worker says `opened`, so the messages of opening (a repair's) are
    /// told from those of drawing. Errors are answered, never thrown: the worker stays up.
    static let script = #"""
    for (;;) {
      var line;
      try { line = readline(); } catch (e) { break; }
      if (line === null || line === undefined) break;
      var f = line.split("\t");
      var tag = "\u0001" + f.shift() + " ", answer;
      try {
        if (f[0] === "hello") { print(tag + "ready"); continue; }
        var doc = new Document(f[1]);
        var page = doc.loadPage(0), b = page.bound();
        print(tag + "opened");
        if (f[0] === "describe") {
          answer = "ok " + doc.countPages() + " " + b.join(" ") + " " + doc.wasRepaired();
        } else {
          var w = parseInt(f[2]), h = parseInt(f[3]);
          var sx = w / (b[2] - b[0]), sy = h / (b[3] - b[1]);
          var writer = new DocumentWriter(f[4], "pam", "resolution=72,colorspace=rgb,alpha");
          var device = writer.beginPage([0, 0, w, h]);
          page.run(device, [sx, 0, 0, sy, -b[0] * sx, -b[1] * sy]);
          writer.endPage();
          writer.close();
          answer = "ok " + doc.wasRepaired();
        }
      } catch (e) {
        answer = "error " + String(e).split("\n")[0];
      }
      // Dropped and collected now, not whenever: with documents, pages and writers left to the
      // collector, mutool 1.21 crashed after some hundred requests in some orders. Before the
      // answer, so whatever dropping the document prints is judged with its own request.
      page = null; doc = null; writer = null; device = null;
      gc();
      print(tag + answer);
    }
    """#
}
