import Foundation
import TesseraCore

/// Display P3 pixels made sRGB pixels: what Xcode stores when a P3 PDF fills an sRGB entry of a
/// set. Both spaces share the sRGB transfer curve and the D65 white, so the conversion is the
/// curve undone, one 3×3 matrix in linear light, colours outside sRGB clipped, and the curve
/// applied again. Alpha is straight and left as it is.
public enum DisplayP3Conversion {
    /// Linear Display P3 → linear sRGB (both D65; from their primaries).
    static let matrix: [[Double]] = [
        [1.2249401, -0.2249404, 0.0],
        [-0.0420569, 1.0420571, 0.0],
        [-0.0196376, -0.0786361, 1.0982735],
    ]

    /// Converts an RGBA8 bitmap in place; other layouts are left alone.
    public static func toSRGB(_ bitmap: inout Bitmap) {
        guard bitmap.format == .rgba8 else { return }
        let linear = (0 ..< 256).map { decode(Double($0) / 255) }
        // 4096 steps of linear light are finer than 8-bit sRGB needs anywhere on the curve.
        let steps = 4095.0
        let encoded = (0 ... Int(steps)).map { UInt8((encode(Double($0) / steps) * 255).rounded()) }
        let m = matrix
        let width = bitmap.width, stride = bitmap.rowStride
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0 ..< bitmap.height {
                var offset = y * stride
                for _ in 0 ..< width {
                    let r = linear[Int(pixels[offset])], g = linear[Int(pixels[offset + 1])], b = linear[Int(pixels[offset + 2])]
                    for channel in 0 ..< 3 {
                        let value = m[channel][0] * r + m[channel][1] * g + m[channel][2] * b
                        pixels[offset + channel] = encoded[Int((min(max(value, 0), 1) * steps).rounded())]
                    }
                    offset += 4
                }
            }
        }
        bitmap.colorSpace = .sRGB
    }

    static func decode(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    static func encode(_ value: Double) -> Double {
        value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    }
}
