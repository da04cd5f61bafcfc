/// The arithmetic every resampling path shares, in one place, so a band-by-band run and a
/// whole-image run sum the same products in the same order and agree to the bit.
enum FilterKernels {
    /// Adds a row into box accumulators: input pixel x goes into accumulator x / factor.
    @inline(__always)
    static func accumulate(_ row: UnsafePointer<SIMD4<Float>>, count: Int, factor: Int,
                           into sums: UnsafeMutablePointer<SIMD4<Float>>) {
        if factor == 1 {
            for x in 0..<count { sums[x] += row[x] }
            return
        }
        for x in 0..<count { sums[x / factor] += row[x] }
    }

    /// Divides box sums by how many input pixels each one covered (edge boxes cover fewer).
    @inline(__always)
    static func average(_ sums: UnsafeMutablePointer<SIMD4<Float>>, count: Int, factor: Int, inputWidth: Int,
                        rows: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<count {
            let columns = min(factor, inputWidth - x * factor)
            row[x] = sums[x] / Float(columns * rows)
        }
    }

    /// One output row of a horizontal pass.
    @inline(__always)
    static func convolve(_ row: UnsafePointer<SIMD4<Float>>, weights: ResamplingWeights,
                         into output: UnsafeMutablePointer<SIMD4<Float>>) {
        weights.weights.withUnsafeBufferPointer { w in
            for x in 0..<weights.starts.count {
                let start = weights.starts[x], base = x * weights.stride
                var sum = SIMD4<Float>.zero
                for k in 0..<weights.counts[x] { sum += row[start + k] * w[base + k] }
                output[x] = sum
            }
        }
    }

    /// One output row of a vertical pass: `rows(k)` is input row `start + k`.
    @inline(__always)
    static func combine(count: Int, taps: Int, weights: UnsafePointer<Float>,
                        rows: (Int) -> UnsafePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<count { output[x] = .zero }
        for k in 0..<taps {
            let row = rows(k), weight = weights[k]
            for x in 0..<count { output[x] += row[x] * weight }
        }
    }
}
