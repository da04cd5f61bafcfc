import TesseraCore

/// How large to render a vector document.
public enum RenderScale: Sendable, Equatable, Hashable {
    /// The page size in points times this factor (1, 2 or 3 for Apple's display scales), each
    /// side rounded to the nearest pixel, as Xcode sizes a single-scale PDF or SVG image set.
    case factor(Double)
    /// Exactly this many pixels; the page is stretched to fill them.
    case pixels(width: Int, height: Int)

    /// Apple's display scales.
    public static let x1 = RenderScale.factor(1)
    public static let x2 = RenderScale.factor(2)
    public static let x3 = RenderScale.factor(3)

    /// The pixel size for a page, or an error naming why there is none; checks the pixel limit
    /// before anything is allocated.
    func pixelSize(of page: PageSize, format: VectorFormat, limits: VectorLimits,
                   path: String?) throws(TesseraError) -> (width: Int, height: Int) {
        let width: Double, height: Double
        switch self {
        case .factor(let factor):
            guard factor.isFinite, factor > 0 else {
                throw TesseraError(.configuration, file: path, origin: .rasterize, reason: "scale \(factor) is not a positive number")
            }
            width = (page.width * factor).rounded()
            height = (page.height * factor).rounded()
        case .pixels(let w, let h):
            width = Double(w)
            height = Double(h)
        }
        // Compared as doubles first, so a 1e300-point page cannot overflow an Int conversion.
        guard width.isFinite, height.isFinite, width * height <= Double(limits.maxPixels),
              width <= Double(Self.maxSide), height <= Double(Self.maxSide) else {
            throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                               reason: "\(format.displayName) page is \(page) (\(Self.describe(width))×\(Self.describe(height)) pixels at \(self)), over the limit of \(limits.maxPixels) pixels (at most \(Self.maxSide) a side)")
        }
        guard width >= 1, height >= 1 else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                               reason: "\(format.displayName) page is \(page): under one pixel at \(self)")
        }
        return (Int(width), Int(height))
    }

    /// cairo's image surfaces stop at 32767 pixels a side.
    static let maxSide = 32_767

    private static func describe(_ value: Double) -> String {
        value < 1e15 ? String(Int(value)) : String(value)
    }
}

extension RenderScale: CustomStringConvertible {
    public var description: String {
        switch self {
        case .factor(let factor): factor == factor.rounded() ? "\(Int(factor))x" : "\(factor)x"
        case .pixels(let width, let height): "\(width)×\(height) px"
        }
    }
}
