import BuildOptions
import Decoding
import Encoding
import Foundation
import SizeReporting
import TesseraCore

/// The size report's image measurements (docs/size-report.md, "Insights"): a built PNG decoded
/// and encoded again with Tessera's own encoders, so every saving it reports is one Tessera
/// itself makes: PNG at its best lossless effort, with and without an opaque alpha channel, and
/// JPEG at the pipeline's quality for a photograph (`InsightRules.looksPhotographic`), with its
/// PSNR against the PNG's pixels. Measured per distinct file, on every core (`ImageMeasurements`).
public struct ImageSavingsMeasurer: ImageSavingsMeasuring {
    /// The JPEG quality a photograph is measured at: the pipeline's `jpeg-quality`.
    public let jpegQuality: Int

    public init(jpegQuality: Int = OptionTable.Encode.jpegQuality.defaultValue) {
        self.jpegQuality = jpegQuality
    }

    public func measure(file path: String) -> ImageMeasurement? {
        do {
            let source = try SourceBytes(contentsOfFile: path)
            let decoded = try ImageDecoders.decode(source)
            guard decoded.info.format == .png else { return nil }
            let bitmap = decoded.bitmap, icc = decoded.info.iccProfile
            // Tessera writes 8 bits: a 16-bit PNG re-encoded would lose bits, which is no lossless saving.
            guard decoded.info.bitDepth <= 8 else {
                return ImageMeasurement(bytes: source.count, losslessBytes: nil,
                                        jpeg: try jpeg(bitmap, pngBytes: try PNGEncoder(effort: .fast).encode(bitmap, iccProfile: nil).count))
            }
            // The best effort always: no cheaper effort bounds what it saves (a file Tessera wrote
            // at the default effort can still be 11% smaller at the best), so the budget bounds
            // the time instead (`InsightRules.Budget`).
            let lossless = try PNGEncoder(effort: .max).encode(bitmap, iccProfile: icc).count
            var alphaCost: Int?
            if ["rgba", "gray+alpha"].contains(decoded.info.colorModel), Self.isOpaque(bitmap) {
                // Both at the fast effort, a fraction of the best one's time: the difference is
                // the channel, whatever the effort.
                let quick = PNGEncoder(effort: .fast)
                alphaCost = try quick.encodeKeepingAlpha(bitmap, iccProfile: icc).count - quick.encode(bitmap, iccProfile: icc).count
            }
            return ImageMeasurement(bytes: source.count, losslessBytes: lossless, opaqueAlphaCost: alphaCost,
                                    jpeg: try jpeg(bitmap, pngBytes: lossless))
        } catch {
            return nil
        }
    }

    /// A photograph as JPEG, and its PSNR against the PNG; nil for what does not look like one.
    /// `pngBytes`: the image as Tessera writes it, so an uncompressed file of flat art is no photograph.
    func jpeg(_ bitmap: Bitmap, pngBytes: Int) throws(TesseraError) -> JPEGEstimate? {
        guard bitmap.format == .rgba8, bitmap.rowStride == bitmap.width * 4 else { return nil }
        let photographic = bitmap.pixels.withUnsafeBufferPointer {
            InsightRules.looksPhotographic(rgba: $0, width: bitmap.width, height: bitmap.height, fileBytes: pngBytes)
        }
        guard photographic else { return nil }
        let encoded = try JPEGEncoder(quality: jpegQuality).encode(bitmap, iccProfile: nil)
        let back = try ImageDecoders.decode(SourceBytes(bytes: encoded, path: "measured.jpg")).bitmap
        guard back.format == .rgba8, back.width == bitmap.width, back.height == bitmap.height,
              back.rowStride == back.width * 4 else { return nil }
        return JPEGEstimate(bytes: encoded.count, quality: jpegQuality, psnr: Self.psnr(bitmap.pixels, back.pixels))
    }

    /// Peak signal-to-noise ratio over R, G and B of two RGBA8 buffers of one size, in dB, to
    /// 0.01 dB (so the report's JSON is stable); 99 for identical pixels.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var squared: UInt64 = 0
        var index = 0
        while index + 3 < a.count {
            for channel in 0..<3 {
                let difference = Int(a[index + channel]) - Int(b[index + channel])
                squared += UInt64(difference * difference)
            }
            index += 4
        }
        guard squared > 0 else { return 99 }
        let mse = Double(squared) / Double(a.count / 4 * 3)
        let decibels = 10 * log10(255 * 255 / mse)
        return min(99, (decibels * 100).rounded() / 100)
    }

    private static func isOpaque(_ bitmap: Bitmap) -> Bool {
        guard bitmap.format == .rgba8 else { return bitmap.alpha == .opaque }
        var index = 3
        while index < bitmap.pixels.count, bitmap.pixels[index] == 255 { index += 4 }
        return index >= bitmap.pixels.count
    }
}
