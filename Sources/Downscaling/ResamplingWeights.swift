/// For every output pixel along one axis: the first input pixel it reads and the normalised weights.
///
/// Input positions are mapped through the *logical* input size: a shrink-on-load or box stage
/// can leave a last pixel that stands for less than a whole step (libjpeg rounds ⌈W/8⌉ up), and
/// mapping through the real ratio gives that partial pixel only its true share, so the output is
/// neither shifted nor edged. When shrinking, the kernel is stretched by the scale so it averages
/// every input pixel the output pixel covers; weights are normalised to sum to 1, so edges, where
/// part of the kernel falls outside the image, keep their brightness.
struct ResamplingWeights: Sendable {
    let starts: [Int]
    let counts: [Int]
    /// Weights of output pixel i at `i * stride ..< i * stride + counts[i]`.
    let weights: [Float]
    /// `weights` with each weight in all four lanes: the horizontal pass multiplies whole pixels
    /// by them straight from memory instead of broadcasting a float for every tap.
    let lanes: [SIMD4<Float>]
    let stride: Int
    /// The most input pixels any output pixel reads.
    let maxCount: Int

    /// The taps stored for every output pixel along an axis this long.
    static func stride(logicalSize: Double, outputSize: Int, filter: ResamplingFilter) -> Int {
        let scale = logicalSize / Double(max(1, outputSize))
        let support = filter == .box ? max(scale, 1) / 2 : filter.support * max(scale, 1)
        return Int((support * 2).rounded(.up)) + 2
    }

    /// The bytes the weights of an axis hold: for each output pixel its start and count, and
    /// `stride` weights as floats and again as four-lane vectors. Per output row (the vertical
    /// axis) this is the state a 1 × 200,000,000 master made a 5 GB allocation of (issue 39).
    static func bytes(logicalSize: Double, outputSize: Int, filter: ResamplingFilter) -> Int {
        let stride = stride(logicalSize: logicalSize, outputSize: outputSize, filter: filter)
        return outputSize * (2 * MemoryLayout<Int>.size + stride * (MemoryLayout<Float>.size + MemoryLayout<SIMD4<Float>>.size))
    }

    init(inputPixels: Int, logicalSize: Double, outputSize: Int, filter: ResamplingFilter) {
        let scale = logicalSize / Double(outputSize)
        let stretch = max(scale, 1)
        let support = filter == .box ? max(scale, 1) / 2 : filter.support * stretch
        let stride = Self.stride(logicalSize: logicalSize, outputSize: outputSize, filter: filter)
        var starts = [Int](repeating: 0, count: outputSize)
        var counts = [Int](repeating: 0, count: outputSize)
        var weights = [Float](repeating: 0, count: outputSize * stride)
        // One scratch row for every output pixel's raw weights: a fresh array per pixel cost more
        // than the filter for small images.
        var raw = [Double](repeating: 0, count: max(stride, 1))
        for output in 0..<outputSize {
            let center = (Double(output) + 0.5) * scale
            let first = min(max(0, Int((center - support).rounded(.down))), inputPixels - 1)
            let last = max(min(inputPixels, Int((center + support).rounded(.up))), first + 1)
            let taps = last - first
            if raw.count < taps { raw = [Double](repeating: 0, count: taps) }
            var total = 0.0
            for index in 0..<taps {
                let input = first + index
                let value: Double
                if filter == .box {
                    // Exact coverage of input pixel [input, input+1) by [center - support, center + support).
                    let low = max(Double(input), center - support), high = min(Double(input + 1), center + support)
                    value = max(0, high - low)
                } else {
                    value = filter.weight((Double(input) + 0.5 - center) / stretch)
                }
                raw[index] = value
                total += value
            }
            if total == 0 {
                // A kernel that misses every pixel centre: take the nearest pixel.
                for index in 0..<taps { raw[index] = 0 }
                raw[min(max(Int(center), first), last - 1) - first] = 1
                total = 1
            }
            // Trim zero weights at both ends so the inner loops do no useless work.
            var lower = 0, upper = taps
            while lower < upper - 1, raw[lower] == 0 { lower += 1 }
            while upper > lower + 1, raw[upper - 1] == 0 { upper -= 1 }
            starts[output] = first + lower
            counts[output] = upper - lower
            for offset in 0..<(upper - lower) {
                weights[output * stride + offset] = Float(raw[lower + offset] / total)
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        lanes = weights.map { SIMD4<Float>(repeating: $0) }
        self.stride = stride
        maxCount = counts.max() ?? 1
    }
}
