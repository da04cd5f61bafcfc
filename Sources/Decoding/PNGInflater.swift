import CISAL
import TesseraCore

/// A PNG's zlib stream inflated by ISA-L's igzip, which streams at about twice zlib's speed
/// (docs/png-encoding.md), the compressed pieces fetched from the chunk walker as needed.
///
/// Faults follow libpng: damaged data before the last row's bytes, a wrong Adler-32 (zlib checks it
/// with the last row when its bytes are at hand, as they nearly always are) and IDATs that end before
/// the stream does are errors; damage in data past the image's bytes, and the surplus itself, are warnings.
final class PNGInflater {
    private let chunks: PNGChunkWalker
    private let state: UnsafeMutablePointer<inflate_state>
    /// Bytes of all the filtered rows.
    private let expected: Int
    private var sawHeader = false
    /// The zlib stream's end (and checksum) has been read, or it failed after the image's bytes.
    private(set) var ended = false
    /// Bytes inflated so far.
    private(set) var totalOut = 0
    private(set) var warnings: [String] = []

    init(chunks: PNGChunkWalker, expected: Int) {
        self.chunks = chunks
        self.expected = expected
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_ZLIB)
    }

    deinit { state.deallocate() }

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
            state.pointee.next_out = (output.baseAddress! + written).assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(room)
            let status = isal_inflate(state)
            let produced = room - Int(state.pointee.avail_out)
            written += produced
            totalOut += produced
            if status != ISAL_DECOMP_OK {
                let message = "IDAT: \(describe(status))"
                guard totalOut >= expected && status != ISAL_INCORRECT_CHECKSUM else { throw chunks.failure(message) }
                warnings.append(message)
                ended = true
            } else if state.pointee.block_state == ISAL_BLOCK_FINISH {
                ended = true
                if state.pointee.avail_in > 0 || chunks.remainingInChunk > 0 {
                    warnings.append("IDAT: Extra compressed data")
                }
            } else if state.pointee.avail_out > 0 {
                // Room left and not finished: igzip has used all its input (it flushes what it
                // holds before asking for more), so the next piece is needed.
                guard state.pointee.avail_in == 0 else { throw chunks.failure("IDAT: the inflater stopped with input left") }
                try feed()
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
        state.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress!.assumingMemoryBound(to: UInt8.self))
        state.pointee.avail_in = UInt32(piece.count)
    }

    /// zlib's window size sets how far back a match may reach; over 32 KiB is invalid, and ISA-L
    /// is told the declared size so that a match reaching further fails as it does in zlib.
    private func checkWindow(_ cmf: UInt8) throws(TesseraError) {
        sawHeader = true
        let bits = Int(cmf >> 4) + 8
        guard bits <= 15 else { throw chunks.failure("IDAT: invalid window size (libpng)") }
        state.pointee.hist_bits = UInt32(bits)
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
