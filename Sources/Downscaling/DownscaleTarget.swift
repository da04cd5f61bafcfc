/// What size a downscale should produce, given the source's size.
public enum DownscaleTarget: Sendable, Equatable {
    /// The largest size that fits within the box, keeping the aspect ratio.
    case fit(width: Int, height: Int)
    /// At most this many pixels, keeping the aspect ratio: each side scaled by √(N / pixels), as
    /// SDWebImage's scale-down meant to (it used the area ratio as a linear scale by mistake).
    case maxPixels(Int)
    /// At most this many bytes of decoded RGBA8 (4 bytes a pixel).
    case maxBytes(Int)
    /// Each side multiplied by the factor.
    case scale(Double)
    /// Exactly this size (the aspect ratio may change).
    case exact(width: Int, height: Int)

    /// The output size for a `width`×`height` source. Sides never drop below 1 pixel; the image
    /// is never enlarged unless `allowUpscale`.
    public func size(forWidth width: Int, height: Int, allowUpscale: Bool = false) -> (width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        var result: (width: Int, height: Int)
        switch self {
        case .fit(let boxWidth, let boxHeight):
            if w / Double(boxWidth) >= h / Double(boxHeight) {
                result = (boxWidth, Self.round(h * Double(boxWidth) / w))
            } else {
                result = (Self.round(w * Double(boxHeight) / h), boxHeight)
            }
        case .maxBytes(let bytes):
            return DownscaleTarget.maxPixels(bytes / 4).size(forWidth: width, height: height, allowUpscale: allowUpscale)
        case .maxPixels(let limit):
            let factor = (Double(max(1, limit)) / (w * h)).squareRoot()
            result = (max(1, Int(w * factor)), max(1, Int(h * factor)))
            // Flooring keeps the product within the limit except where a side is clamped to 1.
            while result.width * result.height > limit, result.width > 1 || result.height > 1 {
                if result.width >= result.height { result.width -= 1 } else { result.height -= 1 }
            }
        case .scale(let factor):
            result = (Self.round(w * factor), Self.round(h * factor))
        case .exact(let targetWidth, let targetHeight):
            result = (max(1, targetWidth), max(1, targetHeight))
        }
        if !allowUpscale, result.width > width || result.height > height { return (width, height) }
        return result
    }

    private static func round(_ value: Double) -> Int { max(1, Int(value.rounded())) }
}
