import TesseraCore

/// PNG, 8-bit, in the smallest of gray, gray+alpha, RGB or RGBA that keeps every pixel; or, with
/// a lossy `palette`, indexed (1, 2, 4 or 8 bits) with PLTE and tRNS.
///
/// Rows are filtered with libpng's per-row heuristic and the image data is compressed with
/// libdeflate rather than zlib: at the same effort it is several times faster for the same size
/// (`docs/png-encoding.md`). The file holds IHDR, PLTE and tRNS (indexed), iCCP (when a profile
/// is given), IDAT and IEND.
public struct PNGEncoder: ImageEncoder, Codable, Hashable {
    public var effort: PNGEffort
    /// DEFLATE level on libdeflate's 0–12 scale (0 stores, 12 is smallest).
    public var compressionLevel: Int
    /// Lossy palette reduction; `.off` (the default) keeps every pixel.
    public var palette: PNGPalette

    /// `compressionLevel` defaults to the effort's level; given, it wins over the effort.
    public init(effort: PNGEffort = .default, compressionLevel: Int? = nil, palette: PNGPalette = .off) {
        self.effort = effort
        self.compressionLevel = min(12, max(0, compressionLevel ?? effort.compressionLevel))
        self.palette = palette
    }

    public var format: ImageFormat { .png }


    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        var notes: [String] = []
        return try encode(bitmap, iccProfile: iccProfile, notes: &notes)
    }

    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?, notes: inout [String]) throws(TesseraError) -> [UInt8] {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw TesseraError(.internalFailure, origin: .encode, reason: "PNG: an image needs at least one pixel")
        }
        if palette.mode == .lossy {
            let rgba = PixelPacking.straightRGBA(bitmap)
            switch try LossyPaletteQuantiser.quantise(rgba: rgba, width: bitmap.width, height: bitmap.height,
                                                      options: palette) {
            case .palette(let reduced):
                return try indexed(reduced, width: bitmap.width, height: bitmap.height, iccProfile: iccProfile)
            case .belowFloor:
                notes.append("PNG palette: libimagequant could not reach quality \(palette.quality.lowerBound) "
                             + "(png-palette-quality \(palette.quality.lowerBound)-\(palette.quality.upperBound)); written truecolour")
            }
        }
        // Packed and filtered a row at a time from the bitmap itself: besides the bitmap, only
        // the filtered rows and the file are ever whole.
        let layout = PixelPacking.smallestLayout(bitmap)
        let rows = PixelPacking.PackedRows(bitmap, as: layout)
        let filtered = PNGRowFilter.filter(width: bitmap.width, height: bitmap.height, bytesPerPixel: layout.rawValue) {
            rows.row($0, into: $1)
        }
        return try file(header: Self.header(width: bitmap.width, height: bitmap.height, bitDepth: 8,
                                            colorType: layout.pngColorType),
                        palette: [], data: filtered, iccProfile: iccProfile)
    }

    /// Rows streamed in give the same file, except with a lossy palette, which needs every pixel
    /// before the first index.
    public func rowEncoder(for encoding: RowEncoding) -> (any ImageRowEncoder)? {
        palette.mode == .lossy ? nil : PNGRowEncoder(encoder: self, encoding: encoding)
    }

    /// An indexed PNG: the smallest bit depth that holds the palette, rows unfiltered (filters
    /// do not help indices), PLTE, and tRNS up to the last entry that is not opaque.
    private func indexed(_ reduced: LossyPaletteQuantiser.Palette, width: Int, height: Int,
                         iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        let bitDepth = reduced.count <= 2 ? 1 : reduced.count <= 4 ? 2 : reduced.count <= 16 ? 4 : 8
        let rowBytes = (width * bitDepth + 7) / 8
        var rows = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        let perByte = 8 / bitDepth
        for y in 0..<height {
            let start = y * (rowBytes + 1) + 1
            for x in 0..<width {
                let shift = (perByte - 1 - x % perByte) * bitDepth
                rows[start + x / perByte] |= reduced.indices[y * width + x] << shift
            }
        }
        let entries = reduced.entries
        var palette = [("PLTE", (0..<reduced.count).flatMap { entries[($0 * 4)..<($0 * 4 + 3)] })]
        let translucent = (0..<reduced.count).filter { entries[$0 * 4 + 3] < 255 }
        if let last = translucent.last { palette.append(("tRNS", (0...last).map { entries[$0 * 4 + 3] })) }
        return try file(header: Self.header(width: width, height: height, bitDepth: bitDepth, colorType: 3),
                        palette: palette, data: rows, iccProfile: iccProfile)
    }

    /// IHDR, iCCP, the palette chunks (which the PNG spec puts after iCCP), then `data` (the
    /// filtered rows) compressed into IDAT, and IEND.
    private func file(header: [UInt8], palette: [(String, [UInt8])], data: [UInt8],
                      iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        // `withUnsafeBytes` rethrows untyped errors: the typed one travels in a Result.
        try data.withUnsafeBytes { raw in
            Result { () throws(TesseraError) in try file(header: header, palette: palette, data: raw, iccProfile: iccProfile) }
        }.get()
    }

    func file(header: [UInt8], palette: [(String, [UInt8])], data: UnsafeRawBufferPointer,
              iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        var file = PNGChunkWriter(reservingCapacity: (iccProfile?.count ?? 0) + 1200)
        file.append("IHDR", header)
        if let iccProfile, !iccProfile.isEmpty {
            file.append("iCCP", try Self.iccChunk(iccProfile, level: compressionLevel))
        }
        for (type, bytes) in palette { file.append(type, bytes) }
        return try ZlibStream.Compressor.borrowing(level: compressionLevel) { compressor throws(TesseraError) in
            try file.finish(compressing: data, with: compressor)
        }
    }

    static func header(width: Int, height: Int, bitDepth: Int, colorType: Int32) -> [UInt8] {
        func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        // Then compression, filter and interlace methods 0.
        return bigEndian(width) + bigEndian(height) + [UInt8(bitDepth), UInt8(colorType), 0, 0, 0]
    }

    private static func iccChunk(_ profile: [UInt8], level: Int) throws(TesseraError) -> [UInt8] {
        let compressed = try ZlibStream.compress(profile, level: max(1, level))
        // Profile name, its terminator, compression method 0 (zlib), then the stream.
        return Array("ICC Profile".utf8) + [0, 0] + compressed
    }
}
