import CCodecGuards
import TesseraCore

/// Streams the rows of a non-interlaced 8- or 16-bit gray, gray+alpha, RGB or RGBA PNG (what
/// masters are) faster than libpng: its own chunk walk, ISA-L's inflate (zlib's in a build without
/// the FastInflate trait), its own unfiltering.
/// libpng has read everything before the image data, so the header checks, ICC profile, sRGB,
/// tRNS, EXIF and warnings are libpng's; the pixels are identical to libpng's (tests compare
/// them on PngSuite and the corpus). Memory: the inflate window and two rows, whatever the size.
final class PNGRowReader: RowReader {
    private let session: PNGSession
    private let layout: PNGPixelLayout
    private let chunks: PNGChunkWalker
    private let inflater: PNGInflater
    /// Inflated, still filtered rows (a filter-type byte, then the row) not yet handed out: `start..<end`.
    private let inflated: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// Two unfiltered rows, each after `bytesPerPixel` zero bytes: the row being built and the one above.
    private let rowStorage: UnsafeMutablePointer<UInt8>
    private var current: UnsafeMutablePointer<UInt8>
    private var previous: UnsafeMutablePointer<UInt8>
    private(set) var rowsRead = 0

    /// Takes over `session` after libpng's header read; nil when the image is not one this reader covers.
    init?(_ session: PNGSession, inflatingWith implementation: PNGInflater.Implementation = .fastest) {
        let info = session.info
        var samples: [UInt16] = [0, 0, 0]
        let hasKey = tessera_png_transparent_color(session.reader, &samples) == 1
        guard !info.needsWholeImage,
              let layout = PNGPixelLayout(colorModel: info.colorModel, bitDepth: info.bitDepth, width: info.width,
                                          transparent: hasKey ? (samples[0], samples[1], samples[2]) : nil) else {
            return nil
        }
        var pending: UnsafePointer<UInt8>?
        var pendingLength = 0
        var firstLength: UInt32 = 0
        guard tessera_png_image_data(session.reader, &pending, &pendingLength, &firstLength) == 0 else { return nil }
        self.session = session
        self.layout = layout
        let stream = PNGByteStream(pending: UnsafeRawBufferPointer(start: pending, count: pendingLength),
                                   descriptor: session.input.descriptor ?? -1, path: session.input.path)
        chunks = PNGChunkWalker(stream: stream, firstLength: firstLength, path: session.input.path)
        let rowLength = layout.rowBytes + 1
        inflater = PNGInflater(chunks: chunks, expected: rowLength * info.height, implementation: implementation)
        // 256 KiB at most, and no more than the whole image's rows: a 12×12 icon's buffer was
        // 256 KiB too, made and freed for each of 100,000 tiny masters (issue 54, item 14).
        inflated = .allocate(byteCount: max(2 * rowLength, min(256 * 1024, rowLength * info.height)), alignment: 64)
        let slot = layout.bytesPerPixel + layout.rowBytes
        rowStorage = .allocate(capacity: 2 * slot)
        rowStorage.initialize(repeating: 0, count: 2 * slot)
        current = rowStorage + layout.bytesPerPixel
        previous = rowStorage + slot + layout.bytesPerPixel
    }

    deinit {
        inflated.deallocate()
        rowStorage.deallocate()
    }

    var info: ImageInfo { session.info }
    var width: Int { info.width }
    var height: Int { info.height }
    var alpha: AlphaMode { session.alpha }
    var colorSpace: ColorSpace { session.colorSpace }
    var warnings: [String] { session.warnings + chunks.warnings + inflater.warnings }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        let wanted = min(count, height - rowsRead)
        guard wanted > 0 else { return 0 }
        precondition(buffer.count >= (wanted - 1) * stride + width * 4, "row buffer too small")
        let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for row in 0..<wanted {
            let filtered = try nextFilteredRow()
            guard PNGUnfilter.apply(filter: filtered[0], raw: filtered + 1, prior: previous, out: current,
                                    count: layout.rowBytes, bpp: layout.bytesPerPixel) else {
                throw chunks.failure("bad adaptive filter value (row \(rowsRead + row))")
            }
            layout.expand(current, into: out + row * stride)
            swap(&current, &previous)
        }
        rowsRead += wanted
        return wanted
    }

    func finish() throws(TesseraError) {
        try inflater.finish()
        try chunks.finish()
    }

    /// The next filtered row, inflating more when fewer than a row's bytes are waiting.
    private func nextFilteredRow() throws(TesseraError) -> UnsafePointer<UInt8> {
        let rowLength = layout.rowBytes + 1
        if end - start < rowLength {
            let base = inflated.baseAddress!
            if start > 0 {
                (base).copyMemory(from: base + start, byteCount: end - start)
                end -= start
                start = 0
            }
            while end < rowLength {
                end += try inflater.inflate(into: UnsafeMutableRawBufferPointer(rebasing: inflated[end...]))
            }
        }
        defer { start += rowLength }
        return UnsafePointer((inflated.baseAddress! + start).assumingMemoryBound(to: UInt8.self))
    }
}
