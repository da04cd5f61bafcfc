import Foundation
import TesseraCore

/// Converts 8-bit RGBA to the premultiplied floating-point pixels the filters work on, and back.
///
/// Premultiplying before filtering is what keeps transparent pixels' colours (often black) from
/// bleeding into the edges of opaque ones: the dark fringe of naive resizing. With `linearLight`
/// the colour channels are converted from sRGB to linear light first and back afterwards, so
/// averages are averages of light rather than of encoded values (brighter, truer fine detail).
struct PixelConversion: Sendable {
    let premultiplies: Bool
    let linearLight: Bool
    private let toLinear: [Float]

    init(alpha: AlphaMode, linearLight: Bool) {
        premultiplies = alpha == .straight
        self.linearLight = linearLight
        toLinear = (0...255).map { value in
            guard linearLight else { return Float(value) }
            let c = Double(value) / 255
            let linear = c <= 0.04045 ? c / 12.92 : Foundation.pow((c + 0.055) / 1.055, 2.4)
            return Float(linear * 255)
        }
    }

    /// One row of RGBA8 bytes into premultiplied float pixels.
    @inline(__always)
    func load(_ bytes: UnsafePointer<UInt8>, count: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        if !linearLight && !premultiplies {
            // The table is the identity here: convert four bytes at once.
            let source = UnsafeRawPointer(bytes)
            for x in 0..<count {
                row[x] = SIMD4<Float>(source.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            }
            return
        }
        toLinear.withUnsafeBufferPointer { lut in
            for x in 0..<count {
                let p = bytes + x * 4
                let alpha = Float(p[3])
                var pixel = SIMD4<Float>(lut[Int(p[0])], lut[Int(p[1])], lut[Int(p[2])], alpha)
                if premultiplies {
                    let factor = alpha / 255
                    pixel = SIMD4<Float>(pixel.x * factor, pixel.y * factor, pixel.z * factor, alpha)
                }
                row[x] = pixel
            }
        }
    }

    /// One row of premultiplied float pixels back to RGBA8 bytes, in the source's alpha convention.
    @inline(__always)
    func store(_ row: UnsafePointer<SIMD4<Float>>, count: Int, into bytes: UnsafeMutablePointer<UInt8>) {
        let target = UnsafeMutableRawPointer(bytes)
        if !linearLight && !premultiplies {
            // Nothing to undo: only clamp and round, a pixel's four channels at once.
            for x in 0..<count {
                target.storeBytes(of: Self.clampToBytes(row[x]), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
            return
        }
        if !linearLight {
            for x in 0..<count {
                let pixel = row[x]
                // Back to straight alpha in floating point, before rounding, so faint pixels keep
                // their colour; a pixel whose alpha rounds to 0 has no colour.
                let scaled = pixel * (255 / min(255, pixel.w))
                var straight = SIMD4<Float>(scaled.x, scaled.y, scaled.z, pixel.w)
                if Self.clampToByte(pixel.w) == 0 { straight = SIMD4<Float>(0, 0, 0, pixel.w) }
                target.storeBytes(of: Self.clampToBytes(straight), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
            return
        }
        for x in 0..<count {
            let pixel = row[x]
            let alpha = Self.clampToByte(pixel.w)
            var color = SIMD3<Float>(pixel.x, pixel.y, pixel.z)
            if premultiplies {
                let coverage = min(255, pixel.w)
                color = alpha == 0 ? .zero : color * (255 / coverage)
            }
            let p = bytes + x * 4
            p[0] = Self.encode(color.x)
            p[1] = Self.encode(color.y)
            p[2] = Self.encode(color.z)
            p[3] = alpha
        }
    }

    /// `clampToByte` on four channels at once, with the same result in every lane (NaN and
    /// negatives to 0, at most 255, half away from zero), in vector registers only. Adding 2²³ to
    /// a float in 0...255 leaves no bits for a fraction, so the sum is the nearest integer (ties to
    /// even), exactly; its low mantissa bits are that integer, read back without a conversion.
    @inline(__always)
    static func clampToBytes(_ value: SIMD4<Float>) -> SIMD4<UInt8> {
        let integral = SIMD4<Float>(repeating: 8_388_608)
        var clamped = value.replacing(with: 0, where: .!(value .>= 0))
        clamped.replace(with: 255, where: clamped .> 255)
        var whole = (clamped + integral) - integral
        whole.replace(with: whole - 1, where: whole .> clamped)
        let rounded = whole.replacing(with: whole + 1, where: clamped - whole .>= 0.5)
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded + integral, to: SIMD4<UInt32>.self))
    }

    /// `value` rounded half away from zero and clamped to 0...255: the same as clamping the rounded
    /// value, without a call to `roundf` (the fraction of a value in 0...255 is exact in floats).
    @inline(__always)
    static func clampToByte(_ value: Float) -> UInt8 {
        let clamped = min(255, max(0, value))
        let whole = Float(Int32(clamped))
        return UInt8(clamped - whole >= 0.5 ? whole + 1 : whole)
    }

    /// Linear light (0–255 scale) back to an sRGB byte.
    private static func encode(_ value: Float) -> UInt8 {
        let c = Double(min(255, max(0, value))) / 255
        let encoded = c <= 0.0031308 ? c * 12.92 : 1.055 * Foundation.pow(c, 1 / 2.4) - 0.055
        return clampToByte(Float(encoded * 255))
    }
}
