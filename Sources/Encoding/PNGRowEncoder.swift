import TesseraCore

/// A PNG made from rows as they come (`ImageRowEncoder`), byte for byte the file
/// `PNGEncoder.encode` writes for the finished image, holding only the rows packed (about the
/// filtered rows' size) and the file, never the image.
///
/// PNG's channel layout is the smallest the whole image allows, known only after the last row,
/// and the filter of each row depends on that layout. So rows are kept packed as the source
/// allows (RGB when it has no alpha, else RGBA) and filtered at the end, in the one buffer: when
/// the image needs fewer channels than that, each scanline is no longer than its packed row plus
/// one byte, and rows are filtered from the top; otherwise from the bottom. Either way a row is
/// read before its scanline is written over it, and the row above it is still there (or kept). A
/// translucent pixel in a source without alpha would not fit: `finish` then says nil.
final class PNGRowEncoder: ImageRowEncoder {
    private let encoder: PNGEncoder
    private let encoding: RowEncoding
    private let kept: PixelPacking.Layout
    private let keptRowBytes: Int
    /// Packed rows now, scanlines after `filterInPlace`: room for whichever is larger.
    private var buffer: [UInt8]
    private let row: UnsafeMutablePointer<UInt8>
    private var opaque = true, gray = true, fits = true
    private var rowsTaken = 0

    init(encoder: PNGEncoder, encoding: RowEncoding) {
        self.encoder = encoder
        self.encoding = encoding
        kept = encoding.mayHaveAlpha ? .rgba : .rgb
        keptRowBytes = encoding.width * kept.rawValue
        // The largest a scanline buffer can be, for any layout no larger than `kept`.
        let capacity = (keptRowBytes + 1) * encoding.height
        buffer = [UInt8](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
        row = .allocate(capacity: encoding.width * 4)
    }

    deinit { row.deallocate() }

    func rowStorage(_ y: Int) -> UnsafeMutablePointer<UInt8> { row }

    func finishRow(_ y: Int) {
        guard fits else { return }
        let width = encoding.width
        if encoding.alpha == .premultiplied {
            PixelPacking.unpremultiply(UnsafeMutableBufferPointer(start: row, count: width * 4))
        }
        PixelPacking.scan(UnsafeBufferPointer(start: row, count: width * 4), opaque: &opaque, gray: &gray)
        guard opaque || kept == .rgba else {
            fits = false
            return
        }
        let (row, kept, rowBytes) = (self.row, self.kept, keptRowBytes)
        buffer.withUnsafeMutableBufferPointer {
            PixelPacking.pack(row, count: width, as: kept, into: $0.baseAddress! + y * rowBytes)
        }
        rowsTaken += 1
    }

    func finish(notes: inout [String]) throws(TesseraError) -> [UInt8]? {
        guard fits else { return nil }
        guard rowsTaken == encoding.height else {
            throw TesseraError(.internalFailure, origin: .encode,
                               reason: "PNG: \(rowsTaken) of \(encoding.height) rows were given")
        }
        let layout = PixelPacking.layout(gray: gray, opaque: opaque)
        let count = filterInPlace(as: layout)
        // The scanlines go as soon as the file is made: a pass's other encoders finish after this one.
        defer { buffer = [] }
        return try buffer.withUnsafeBytes { raw in
            Result { () throws(TesseraError) in
                try encoder.file(header: PNGEncoder.header(width: encoding.width, height: encoding.height, bitDepth: 8,
                                                           colorType: layout.pngColorType),
                                 palette: [], data: UnsafeRawBufferPointer(rebasing: raw[0..<count]),
                                 iccProfile: encoding.iccProfile)
            }
        }.get()
    }

    /// Turns the packed rows into `layout`'s scanlines in the same buffer; their byte count.
    private func filterInPlace(as layout: PixelPacking.Layout) -> Int {
        let width = encoding.width, height = encoding.height
        let lineBytes = width * layout.rawValue, bpp = layout.rawValue
        let (kept, keptRowBytes) = (self.kept, self.keptRowBytes)
        let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: lineBytes * 2)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: lineBytes * PNGRowFilter.types)
        defer {
            rgba.deallocate()
            rows.deallocate()
            scratch.deallocate()
        }
        buffer.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            // Row y of the packed image, in `layout`, to `target`.
            func load(_ y: Int, into target: UnsafeMutablePointer<UInt8>) {
                if y < 0 { target.initialize(repeating: 0, count: lineBytes); return }
                if kept == layout { target.update(from: base + y * keptRowBytes, count: lineBytes); return }
                PixelPacking.unpack(base + y * keptRowBytes, count: width, from: kept, into: rgba)
                PixelPacking.pack(rgba, count: width, as: layout, into: target)
            }
            let current = rows, above = rows + lineBytes
            if lineBytes + 1 <= keptRowBytes {
                // Scanline y ends where packed row y + 1 starts, or before: top down, keeping
                // the row above, which scanline y - 1 may have covered.
                load(-1, into: above)
                for y in 0..<height {
                    load(y, into: current)
                    PNGRowFilter.filterRow(current, above: above, count: lineBytes, bpp: bpp, scratch: scratch,
                                           into: base + y * (lineBytes + 1))
                    above.update(from: current, count: lineBytes)
                }
            } else {
                // Scanline y starts where packed row y starts, or after: bottom up, so rows y
                // and y - 1 are still packed when scanline y is written.
                for y in stride(from: height - 1, through: 0, by: -1) {
                    load(y, into: current)
                    load(y - 1, into: above)
                    PNGRowFilter.filterRow(current, above: above, count: lineBytes, bpp: bpp, scratch: scratch,
                                           into: base + y * (lineBytes + 1))
                }
            }
        }
        return (lineBytes + 1) * height
    }
}
