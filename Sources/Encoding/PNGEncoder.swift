import TesseraCore

/// PNG, 8-bit, in the smallest of gray, gray+alpha, RGB or RGBA that keeps every pixel.
///
/// Rows are filtered with libpng's per-row heuristic and the image data is compressed with
/// libdeflate rather than zlib: at the same effort it is several times faster for the same size
/// (`docs/png-encoding.md`). The file holds IHDR, iCCP (when a profile is given), IDAT and IEND.
public struct PNGEncoder: ImageEncoder {
    public var effort: PNGEffort
    /// DEFLATE level on libdeflate's 0–12 scale (0 stores, 12 is smallest).
    public var compressionLevel: Int

    /// `compressionLevel` defaults to the effort's level; given, it wins over the effort.
    public init(effort: PNGEffort = .default, compressionLevel: Int? = nil) {
        self.effort = effort
        self.compressionLevel = min(12, max(0, compressionLevel ?? effort.compressionLevel))
    }

    public var format: ImageFormat { .png }

    public var optionsKey: [String: String] {
        ["png.deflate": "libdeflate", "png.compression-level": String(compressionLevel)]
    }

    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw TesseraError(.internalFailure, stage: "encode", reason: "PNG: an image needs at least one pixel")
        }
        let (layout, packed) = Self.packed(bitmap)
        let filtered = packed.withUnsafeBufferPointer {
            PNGRowFilter.filter($0, width: bitmap.width, height: bitmap.height, bytesPerPixel: layout.rawValue)
        }
        let data = try ZlibStream.compress(filtered, level: compressionLevel)
        var file = PNGChunkWriter(reservingCapacity: data.count + (iccProfile?.count ?? 0) + 128)
        file.append("IHDR", Self.header(width: bitmap.width, height: bitmap.height, colorType: layout.pngColorType))
        if let iccProfile, !iccProfile.isEmpty {
            file.append("iCCP", try Self.iccChunk(iccProfile, level: compressionLevel))
        }
        // IDAT in pieces of at most 1 MiB, as most encoders write it.
        let piece = 1 << 20
        data.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: piece) {
                file.append("IDAT", UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + piece)]))
            }
        }
        file.append("IEND", [])
        return file.bytes
    }

    /// The pixels straight and packed in the smallest lossless layout; the RGBA copy is dropped
    /// before the packed one is filtered.
    private static func packed(_ bitmap: Bitmap) -> (PixelPacking.Layout, [UInt8]) {
        let rgba = PixelPacking.straightRGBA(bitmap)
        let layout = PixelPacking.smallestLayout(rgba)
        return (layout, PixelPacking.pack(rgba, as: layout))
    }

    private static func header(width: Int, height: Int, colorType: Int32) -> [UInt8] {
        func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        // Bit depth 8, then compression, filter and interlace methods 0.
        return bigEndian(width) + bigEndian(height) + [8, UInt8(colorType), 0, 0, 0]
    }

    private static func iccChunk(_ profile: [UInt8], level: Int) throws(TesseraError) -> [UInt8] {
        let compressed = try ZlibStream.compress(profile, level: max(1, level))
        // Profile name, its terminator, compression method 0 (zlib), then the stream.
        return Array("ICC Profile".utf8) + [0, 0] + compressed
    }
}
