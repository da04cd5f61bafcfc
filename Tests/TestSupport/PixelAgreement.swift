import Foundation
import TesseraCore

/// How far apart two renders are, as the PSNR of their colours composited over white (how the
/// image looks on a white page: pdftoppm has no alpha) and, when both have alpha, of alpha alone.
public enum PixelAgreement {
    public static func psnrOverWhite(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height, "sizes differ")
        var squared = 0.0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let p = overWhite(a, x, y), q = overWhite(b, x, y)
                for channel in 0 ..< 3 { squared += (p[channel] - q[channel]) * (p[channel] - q[channel]) }
            }
        }
        return psnr(squared / Double(a.width * a.height * 3))
    }

    public static func psnrOfAlpha(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squared = 0.0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let d = alpha(a, x, y) - alpha(b, x, y)
                squared += d * d
            }
        }
        return psnr(squared / Double(a.width * a.height))
    }

    private static func psnr(_ mse: Double) -> Double { mse == 0 ? 99 : 10 * log10(255 * 255 / mse) }

    public static func alpha(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Double {
        let offset = y * bitmap.rowStride + x * bitmap.format.bytesPerPixel
        return bitmap.format.hasAlpha ? Double(bitmap.pixels[offset + bitmap.format.bytesPerPixel - 1]) : 255
    }

    private static func overWhite(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [Double] {
        let offset = y * bitmap.rowStride + x * bitmap.format.bytesPerPixel
        let p = bitmap.pixels
        let rgb: [Double] = switch bitmap.format {
        case .rgba8, .rgb8: [Double(p[offset]), Double(p[offset + 1]), Double(p[offset + 2])]
        case .bgra8: [Double(p[offset + 2]), Double(p[offset + 1]), Double(p[offset])]
        case .gray8, .grayAlpha8: [Double(p[offset]), Double(p[offset]), Double(p[offset])]
        }
        let a = alpha(bitmap, x, y) / 255
        return rgb.map { $0 * a + 255 * (1 - a) }
    }
}
