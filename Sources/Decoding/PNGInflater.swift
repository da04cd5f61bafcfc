#if FastInflate
import CISAL
#endif
import CZlib
import TesseraCore

/// A PNG's zlib stream inflated by an `InflateEngine`, the compressed pieces fetched from the chunk
/// walker as needed: ISA-L's igzip, which streams at about twice zlib's speed (docs/png-encoding.md),
/// in a build with the FastInflate trait (the default), else zlib's inflate (the static worker,
/// scripts/build-static-worker.sh: Debian has no static ISA-L). Both give the same bytes.
///
/// Faults follow libpng: damaged data before the last row's bytes, a wrong Adler-32 (zlib checks it
/// with the last row when its bytes are at hand, as they nearly always are) and IDATs that end before
/// the stream does are errors; damage in data past the image's bytes, and the surplus itself, are warnings.
final class PNGInflater {
    /// Which inflate implementation reads the stream.
    enum Implementation: Sendable {
        #if FastInflate
        /// Intel ISA-L's igzip: the default where it is built in.
        case isal
        #endif
        /// zlib's inflate (as libpng's own): the build without ISA-L, and the tests' second opinion.
        case zlib

        /// ISA-L when the build has it, else zlib.
        static var fastest: Implementation {
            #if FastInflate
            return .isal
            #else
            return .zlib
            #endif
        }

        /// The library and its version, for `tessera version`.
        var version: String {
            switch self {
            #if FastInflate
            case .isal: return "ISA-L \(ISAL_MAJOR_VERSION).\(ISAL_MINOR_VERSION).\(ISAL_PATCH_VERSION)"
            #endif
            case .zlib: return "zlib \(String(cString: zlibVersion()))"
            }
        }
    }

    private let chunks: PNGChunkWalker
    private let engine: any InflateEngine
    /// Bytes of all the filtered rows.
    private let expected: Int
    private var sawHeader = false
    /// The zlib stream's end (and checksum) has been read, or it failed after the image's bytes.
    private(set) var ended = false
    /// Bytes inflated so far.
    private(set) var totalOut = 0
    private(set) var warnings: [String] = []

    init(chunks: PNGChunkWalker, expected: Int, implementation: Implementation = .fastest) {
        self.chunks = chunks
        self.expected = expected
        switch implementation {
        #if FastInflate
        case .isal: engine = ISALEngine()
        #endif
        case .zlib: engine = ZlibEngine()
        }
    }

    /// Inflates into `output`, at most up to the image's last byte, until it is full or the stream
    /// ends; returns the bytes written.
    func inflate(into output: UnsafeMutableRawBufferPointer) throws(TesseraError) -> Int {
        let wanted = min(output.count, expected - totalOut)
        guard wanted > 0 else { throw chunks.failure("Too much image data requested") }
        let written = try run(into: UnsafeMutableRawBufferPointer(rebasing: output[..<wanted]))
        if written == 0 && ended { throw chunks.failure("Not enough image data") }
        return written
    }

    /// After the last row: reads the rest of the stream, so its end and checksum are checked.
    func finish() throws(TesseraError) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        let before = totalOut
        while !ended { _ = try run(into: scratch) }
        if totalOut > max(before, expected) { warnings.append("IDAT: Too much image data") }
    }

    private func run(into output: UnsafeMutableRawBufferPointer) throws(TesseraError) -> Int {
        var written = 0
        while written < output.count && !ended {
            let room = min(output.count - written, Int(UInt32.max))
            let (produced, outcome) = engine.step(into: UnsafeMutableRawBufferPointer(
                start: output.baseAddress! + written, count: room))
            written += produced
            totalOut += produced
            switch outcome {
            case .failed(let reason, let badChecksum):
                let message = "IDAT: \(reason)"
                guard totalOut >= expected && !badChecksum else { throw chunks.failure(message) }
                warnings.append(message)
                ended = true
            case .streamEnd:
                ended = true
                if engine.inputLeft > 0 || chunks.remainingInChunk > 0 {
                    warnings.append("IDAT: Extra compressed data")
                }
            case .more where produced < room:
                // Room left and not finished: the engine has used all its input (both flush what
                // they hold before asking for more), so the next piece is needed.
                guard engine.inputLeft == 0 else { throw chunks.failure("IDAT: the inflater stopped with input left") }
                try feed()
            case .more:
                break
            }
        }
        return written
    }

    private func feed() throws(TesseraError) {
        var piece: UnsafeRawBufferPointer
        repeat {
            guard let next = try chunks.nextImageData() else { throw chunks.failure("Not enough image data") }
            piece = next
        } while piece.isEmpty
        if !sawHeader { try checkWindow(piece[0]) }
        engine.setInput(piece)
    }

    /// zlib's window size sets how far back a match may reach; over 32 KiB is invalid, and the
    /// engine is told the declared size so that a match reaching further fails as it does in libpng.
    private func checkWindow(_ cmf: UInt8) throws(TesseraError) {
        sawHeader = true
        let bits = Int(cmf >> 4) + 8
        guard bits <= 15 else { throw chunks.failure("IDAT: invalid window size (libpng)") }
        engine.limitWindow(bits: bits)
    }
}

/// What one call of an engine's inflate ended with.
enum InflateOutcome {
    /// The output is full, or all the input is used.
    case more
    /// The stream's end, its checksum checked.
    case streamEnd
    /// zlib's words for the fault, and whether it is the Adler-32.
    case failed(String, badChecksum: Bool)
}

/// One zlib-stream inflater (the zlib wrapper: header and Adler-32 are checked).
protocol InflateEngine: AnyObject {
    /// The window size the stream's header declares (8...15 bits), before the first input.
    func limitWindow(bits: Int)
    /// The next compressed piece; the previous one has been used up.
    func setInput(_ piece: UnsafeRawBufferPointer)
    /// Compressed bytes given and not yet used.
    var inputLeft: Int { get }
    /// Inflates into `output` until it is full, the input is used up, the stream ends or fails;
    /// returns the bytes written.
    func step(into output: UnsafeMutableRawBufferPointer) -> (written: Int, outcome: InflateOutcome)
}

#if FastInflate
/// Intel ISA-L's igzip.
private final class ISALEngine: InflateEngine {
    private let state: UnsafeMutablePointer<inflate_state>
    private var totalOut = 0

    init() {
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_ZLIB)
    }

    deinit { state.deallocate() }

    /// ISA-L is told the declared size so that a match reaching further fails as it does in zlib.
    func limitWindow(bits: Int) { state.pointee.hist_bits = UInt32(bits) }

    func setInput(_ piece: UnsafeRawBufferPointer) {
        state.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress!.assumingMemoryBound(to: UInt8.self))
        state.pointee.avail_in = UInt32(piece.count)
    }

    var inputLeft: Int { Int(state.pointee.avail_in) }

    func step(into output: UnsafeMutableRawBufferPointer) -> (written: Int, outcome: InflateOutcome) {
        state.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(output.count)
        let status = isal_inflate(state)
        let produced = output.count - Int(state.pointee.avail_out)
        totalOut += produced
        if status != ISAL_DECOMP_OK {
            return (produced, .failed(describe(status), badChecksum: status == ISAL_INCORRECT_CHECKSUM))
        }
        return (produced, state.pointee.block_state == ISAL_BLOCK_FINISH ? .streamEnd : .more)
    }

    /// zlib's words for each failure, as libpng reports them.
    private func describe(_ status: Int32) -> String {
        switch status {
        case ISAL_INCORRECT_CHECKSUM where totalOut == 0: "incorrect header check"
        case ISAL_INVALID_BLOCK: "invalid block type"
        case ISAL_INVALID_SYMBOL: "invalid code"
        case ISAL_INVALID_LOOKBACK: "invalid distance too far back"
        case ISAL_INVALID_WRAPPER: "incorrect header check"
        case ISAL_UNSUPPORTED_METHOD: "unknown compression method"
        case ISAL_INCORRECT_CHECKSUM: "incorrect data check"
        case ISAL_NEED_DICT: "missing a preset dictionary"
        default: "inflate error \(status)"
        }
    }
}
#endif

/// zlib's inflate, set up as libpng sets it up: the window is the one the stream's header declares
/// (windowBits 0), so a match reaching further back fails as it does in libpng.
private final class ZlibEngine: InflateEngine {
    private let stream: UnsafeMutablePointer<z_stream>
    private let ready: Bool

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        ready = inflateInit2_(stream, 0, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if ready { inflateEnd(stream) }
        stream.deallocate()
    }

    /// zlib reads the window size from the header itself (windowBits 0).
    func limitWindow(bits: Int) {}

    func setInput(_ piece: UnsafeRawBufferPointer) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress!.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(piece.count)
    }

    var inputLeft: Int { Int(stream.pointee.avail_in) }

    func step(into output: UnsafeMutableRawBufferPointer) -> (written: Int, outcome: InflateOutcome) {
        guard ready else { return (0, .failed("inflateInit failed", badChecksum: false)) }
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(output.count)
        let status = inflate(stream, Z_NO_FLUSH)
        let produced = output.count - Int(stream.pointee.avail_out)
        switch status {
        case Z_OK, Z_BUF_ERROR:
            // Z_BUF_ERROR: no progress was possible, which here means no input yet.
            return (produced, .more)
        case Z_STREAM_END:
            return (produced, .streamEnd)
        case Z_NEED_DICT:
            return (produced, .failed("missing a preset dictionary", badChecksum: false))
        default:
            // Z_DATA_ERROR's words are zlib's own, as libpng reports them.
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "inflate error \(status)"
            return (produced, .failed(reason, badChecksum: reason == "incorrect data check"))
        }
    }
}
