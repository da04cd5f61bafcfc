import CCodecGuards
import TesseraCore

/// PNG through libpng, 8-bit, in the smallest of gray, gray+alpha, RGB or RGBA that keeps every pixel.
public struct PNGEncoder: ImageEncoder {
    /// zlib level 0–9.
    public var compressionLevel: Int

    public init(compressionLevel: Int = 6) {
        self.compressionLevel = min(9, max(0, compressionLevel))
    }

    public var format: ImageFormat { .png }

    public var optionsKey: [String: String] { ["png.compression-level": String(compressionLevel)] }

    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        let rgba = PixelPacking.straightRGBA(bitmap)
        let layout = PixelPacking.smallestLayout(rgba)
        let packed = PixelPacking.pack(rgba, as: layout)
        let stride = bitmap.width * layout.rawValue
        return try collectEncoderOutput(format: .png) { output, message in
            packed.withUnsafeBufferPointer { pixels in
                let icc = iccProfile ?? []
                return icc.withUnsafeBufferPointer { profile in
                    tessera_png_encode(pixels.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), stride,
                                       layout.pngColorType, Int32(compressionLevel),
                                       profile.isEmpty ? nil : profile.baseAddress, profile.count, nil,
                                       output, message)
                }
            }
        }
    }
}
