import Foundation

/// The reconstruction filters Tessera resamples with. Lanczos-3 is the default, as in libvips and Pillow.
public enum ResamplingFilter: String, Sendable, CaseIterable, Codable {
    /// Exact area averaging: each output pixel is the mean of the source area it covers.
    case box
    /// Linear interpolation (tent), support 1.
    case triangle
    /// Mitchell–Netravali (B = C = 1/3), support 2: soft, few artefacts.
    case mitchell
    /// Catmull–Rom (B = 0, C = 1/2), support 2: sharper than Mitchell.
    case catmullRom = "catmull-rom"
    /// Windowed sinc with three lobes, support 3: sharpest, slight ringing.
    case lanczos3

    /// Half-width of the kernel in source pixels at scale 1.
    public var support: Double {
        switch self {
        case .box: 0.5
        case .triangle: 1
        case .mitchell, .catmullRom: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's value at distance `x` (in output-pixel units).
    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box:
            return x < 0.5 ? 1 : 0
        case .triangle:
            return x < 1 ? 1 - x : 0
        case .mitchell:
            return cubic(x, b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .catmullRom:
            return cubic(x, b: 0, c: 0.5)
        case .lanczos3:
            if x >= 3 { return 0 }
            return sinc(x) * sinc(x / 3)
        }
    }

    private func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    /// Mitchell and Netravali's family of cubics.
    private func cubic(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}
