import Foundation
import TesseraCore

/// One `tessera-svg-worker` process kept alive to serve many SVG requests, one at a time
/// (Sources/SVGWorker/main.c has the protocol). librsvg runs there, not in Tessera: a panic in
/// it aborts that process, a runaway filter is killed at the request's time limit, and only the
/// asset asked for fails.
///
/// Answers are framed (a fixed header with the request's 128-bit nonce, a status and an exact
/// length) on a descriptor the libraries cannot print to. An answer whose header, nonce or length
/// is not the one expected means the stream cannot be trusted: the worker is stopped and its
/// request failed, never answered from it.
final class SVGWorker: PooledWorker, @unchecked Sendable {
    enum Request: UInt32 { case hello = 1, measure = 2, render = 3 }

    /// How one request ended.
    enum Outcome: Equatable {
        case answered([UInt8])
        /// librsvg refused the document; the worker stays up.
        case refused(String)
        /// Killed at its time limit.
        case timedOut
        /// The worker ended on its own (a signal: a crash or a `prlimit` limit; nil: it exited).
        case died(signal: Int32?)
        /// The answer stream held what was not this request's answer.
        case desynchronised(String)
    }

    let process: WorkerProcess
    /// librsvg's version, as the worker loaded it (`librsvg 2.54.7`).
    private(set) var libraryVersion = ""

    init(program: [String], limiter: String, addressSpace: Int, cpuSeconds: Int) throws(TesseraError) {
        process = try WorkerProcess(program: program, limiter: limiter, addressSpace: addressSpace,
                                    cpuSeconds: cpuSeconds, mergingErrors: false)
        guard case .answered(let version) = ask(.hello, document: [], answerBytes: nil, seconds: 10) else {
            process.stop()
            throw TesseraError(.io, origin: .rasterize, reason: "the SVG worker (\(program.joined(separator: " "))) did not start")
        }
        libraryVersion = String(decoding: version, as: UTF8.self)
    }

    /// Sends one request and reads its answer; kills the worker when `seconds` pass first.
    /// `answerBytes`: the exact length a successful answer must have (nil: any, up to 4 KiB).
    func ask(_ request: Request, document: [UInt8], width: Int = 0, height: Int = 0, answerBytes: Int?,
             seconds: Double) -> Outcome {
        let nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        var frame = Array("TSVQ".utf8) + nonce
        for word in [request.rawValue, UInt32(width), UInt32(height), UInt32(document.count)] {
            frame += withUnsafeBytes(of: word.littleEndian) { Array($0) }
        }
        frame += document
        let (outcome, timedOut) = process.timed(seconds: seconds) { () -> Outcome in
            guard process.send(frame) else { return .died(signal: nil) }
            return readAnswer(nonce: nonce, answerBytes: answerBytes)
        }
        switch outcome {
        case .answered, .refused:
            if timedOut { process.stop() }
            return outcome
        case .timedOut, .died, .desynchronised:
            process.stop()
            if timedOut { return .timedOut }
            if case .died = outcome { return .died(signal: process.endingSignal) }
            return outcome
        }
    }

    private func readAnswer(nonce: [UInt8], answerBytes: Int?) -> Outcome {
        var head = [UInt8](repeating: 0, count: 28)
        guard head.withUnsafeMutableBytes({ process.receiveAll(into: $0) }) else { return .died(signal: nil) }
        guard head.prefix(4).elementsEqual("TSVA".utf8), Array(head[4..<20]) == nonce else {
            return .desynchronised("an answer that was not this request's")
        }
        let status = Self.word(head, at: 20), length = Int(Self.word(head, at: 24))
        let expected = status == 0 ? answerBytes : nil
        guard status <= 1, expected.map({ $0 == length }) ?? (length <= 4096) else {
            return .desynchronised("an answer of \(length) bytes where \(expected.map(String.init) ?? "at most 4096") were due")
        }
        var payload = [UInt8](unsafeUninitializedCapacity: length) { _, initialized in initialized = length }
        guard payload.withUnsafeMutableBytes({ process.receiveAll(into: $0) }) else { return .died(signal: nil) }
        return status == 0 ? .answered(payload) : .refused(String(decoding: payload, as: UTF8.self))
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
