import CCodecGuards
import TesseraCore

/// JPEG through libjpeg-turbo. Alpha is dropped (JPEG has none); gray images are written as one-channel JPEGs.
public struct JPEGEncoder: ImageEncoder, Codable, Hashable {
    public enum ChromaSubsampling: String, Sendable, Codable, CaseIterable {
        /// Half-resolution chroma both ways: the usual photo setting.
        case s420 = "4:2:0"
        /// Full-resolution chroma: sharper colour edges, larger files.
        case s444 = "4:4:4"
    }

    public var quality: Int
    public var progressive: Bool
    /// Optimised Huffman tables: smaller files for a little more time.
    public var optimizeCoding: Bool
    public var chroma: ChromaSubsampling

    public init(quality: Int = 90, progressive: Bool = false, optimizeCoding: Bool = true,
                chroma: ChromaSubsampling = .s420) {
        self.quality = min(100, max(1, quality))
        self.progressive = progressive
        self.optimizeCoding = optimizeCoding
        self.chroma = chroma
    }

    public var format: ImageFormat { .jpeg }


    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        let rgba = PixelPacking.straightRGBA(bitmap)
        let gray = PixelPacking.smallestLayout(rgba) == .gray
        let pixels = gray ? PixelPacking.pack(rgba, as: .gray) : rgba
        let components: Int32 = gray ? 1 : 4
        return try collectEncoderOutput(format: .jpeg) { output, message in
            pixels.withUnsafeBufferPointer { buffer in
                let icc = iccProfile ?? []
                return icc.withUnsafeBufferPointer { profile in
                    tessera_jpeg_encode(buffer.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height),
                                        bitmap.width * Int(components), components, Int32(quality),
                                        progressive ? 1 : 0, optimizeCoding ? 1 : 0, chroma == .s444 ? 1 : 0,
                                        profile.isEmpty ? nil : profile.baseAddress, profile.count, output, message)
                }
            }
        }
    }

    /// Rows streamed in give the same file.
    public func rowEncoder(for encoding: RowEncoding) throws(TesseraError) -> (any ImageRowEncoder)? {
        try JPEGRowEncoder(encoder: self, encoding: encoding)
    }
}
