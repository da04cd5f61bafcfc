/// EXIF orientation: how a stored image must be flipped or rotated to appear upright.
public enum Orientation: Int, Sendable, Codable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    /// Mirrored across the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Stored rotated 90° counter-clockwise: shown after turning it 90° clockwise.
    case right = 6
    /// Mirrored across the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// Stored rotated 90° clockwise: shown after turning it 90° counter-clockwise.
    case left = 8

    /// Whether applying it swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// For output pixel (x, y) of the upright image, the stored pixel to read, given the stored size.
    @inline(__always)
    func sourceCoordinate(x: Int, y: Int, width: Int, height: Int) -> (Int, Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }
}

extension Bitmap {
    /// The image turned upright according to `orientation`; the identity costs nothing.
    public func applying(_ orientation: Orientation) throws(TesseraError) -> Bitmap {
        guard orientation != .up else { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        let channels = format.bytesPerPixel
        var result = try Bitmap(width: outWidth, height: outHeight, format: format, alpha: alpha, colorSpace: colorSpace)
        let sourceStride = rowStride, targetStride = result.rowStride
        let (w, h) = (width, height)
        pixels.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = orientation.sourceCoordinate(x: x, y: y, width: w, height: h)
                        let s = sy * sourceStride + sx * channels, t = y * targetStride + x * channels
                        for channel in 0..<channels { target[t + channel] = source[s + channel] }
                    }
                }
            }
        }
        return result
    }
}
