import TesseraCore

/// Resizes a whole bitmap held in memory with a separable filter, on premultiplied alpha.
///
/// Premultiplying before filtering is what keeps transparent pixels' colours (often black) from
/// bleeding into the edges of opaque ones: the dark fringe of naive resizing. The streaming,
/// memory-bounded downscaler of the downscale stage must match this output exactly.
public struct Resampler: Sendable {
    public var filter: ResamplingFilter

    public init(filter: ResamplingFilter = .lanczos3) {
        self.filter = filter
    }

    /// Returns `bitmap` resized to `width`×`height`, in RGBA8 with the source's alpha convention
    /// (straight stays straight, opaque stays opaque).
    public func resize(_ bitmap: Bitmap, width: Int, height: Int) throws(TesseraError) -> Bitmap {
        guard width > 0, height > 0 else {
            throw TesseraError(.invalidInput, stage: "downscale", reason: "target size \(width)×\(height) is empty")
        }
        guard bitmap.format == .rgba8 else {
            throw TesseraError(.internalFailure, stage: "downscale", reason: "resampling expects RGBA8, got \(bitmap.format)")
        }
        let premultiply = bitmap.alpha == .straight
        let horizontal = ResamplingWeights(inputSize: bitmap.width, outputSize: width, filter: filter)
        let vertical = ResamplingWeights(inputSize: bitmap.height, outputSize: height, filter: filter)

        // Pass 1: every source row, horizontally, into a float buffer of width × source height.
        var wide = [Float](repeating: 0, count: width * 4 * bitmap.height)
        var rowBuffer = [Float](repeating: 0, count: bitmap.width * 4)
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                let rowStart = y * bitmap.rowStride
                for x in 0..<bitmap.width {
                    let alpha = Float(source[rowStart + 4 * x + 3])
                    let factor: Float = premultiply ? alpha / 255 : 1
                    rowBuffer[4 * x] = Float(source[rowStart + 4 * x]) * factor
                    rowBuffer[4 * x + 1] = Float(source[rowStart + 4 * x + 1]) * factor
                    rowBuffer[4 * x + 2] = Float(source[rowStart + 4 * x + 2]) * factor
                    rowBuffer[4 * x + 3] = alpha
                }
                Self.convolve(rowBuffer, into: &wide, at: y * width * 4, weights: horizontal)
            }
        }
        // Pass 2: vertically, column by column in row-major order.
        var output = try Bitmap(width: width, height: height, format: .rgba8, alpha: bitmap.alpha,
                                colorSpace: bitmap.colorSpace)
        output.pixels.withUnsafeMutableBufferPointer { target in
            wide.withUnsafeBufferPointer { wide in
                for y in 0..<height {
                    let start = vertical.starts[y], count = vertical.counts[y]
                    let weightBase = y * vertical.stride
                    for x in 0..<width {
                        var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        for k in 0..<count {
                            let w = vertical.weights[weightBase + k], s = ((start + k) * width + x) * 4
                            sum.0 += wide[s] * w
                            sum.1 += wide[s + 1] * w
                            sum.2 += wide[s + 2] * w
                            sum.3 += wide[s + 3] * w
                        }
                        // Back to straight alpha in floating point, before rounding, so faint
                        // pixels keep their colour.
                        let alpha = Self.clampToByte(sum.3)
                        let coverage = min(255, sum.3)
                        let factor: Float = premultiply ? (alpha == 0 ? 0 : 255 / coverage) : 1
                        let t = (y * width + x) * 4
                        target[t] = Self.clampToByte(sum.0 * factor)
                        target[t + 1] = Self.clampToByte(sum.1 * factor)
                        target[t + 2] = Self.clampToByte(sum.2 * factor)
                        target[t + 3] = alpha
                    }
                }
            }
        }
        return output
    }

    private static func convolve(_ row: [Float], into out: inout [Float], at offset: Int, weights: ResamplingWeights) {
        for x in 0..<weights.starts.count {
            let start = weights.starts[x], base = x * weights.stride
            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
            for k in 0..<weights.counts[x] {
                let w = weights.weights[base + k], s = (start + k) * 4
                r += row[s] * w
                g += row[s + 1] * w
                b += row[s + 2] * w
                a += row[s + 3] * w
            }
            out[offset + 4 * x] = r
            out[offset + 4 * x + 1] = g
            out[offset + 4 * x + 2] = b
            out[offset + 4 * x + 3] = a
        }
    }

    private static func clampToByte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
