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
            weights.starts.withUnsafeBufferPointer { starts in
                weights.counts.withUnsafeBufferPointer { counts in
                    let stride = weights.stride
                    var x = 0
                    // Neighbours with as many taps go in pairs: two independent sums hide the
                    // add's latency; each still adds its own products in order.
                    while x < starts.count {
                        let first = row + starts[x], firstTaps = w.baseAddress! + x * stride
                        if x + 1 < starts.count, counts[x] == counts[x + 1] {
                            let second = row + starts[x + 1], secondTaps = firstTaps + stride
                            var a = SIMD4<Float>.zero, b = SIMD4<Float>.zero
                            for k in 0..<counts[x] {
                                a += first[k] * firstTaps[k]
                                b += second[k] * secondTaps[k]
                            }
                            output[x] = a
                            output[x + 1] = b
                            x += 2
                        } else {
                            var sum = SIMD4<Float>.zero
                            for k in 0..<counts[x] { sum += first[k] * firstTaps[k] }
                            output[x] = sum
                            x += 1
                        }
                    }
                }
            }
        }
    }

    /// One output row of a vertical pass: `rows(k)` is input row `start + k`. Each pixel sums its
    /// taps in order from zero in a register, one pass over the output instead of one per tap
    /// (the same products added in the same order, so the same bits).
    @inline(__always)
    static func combine(count: Int, taps: Int, weights: UnsafePointer<Float>,
                        rows: (Int) -> UnsafePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<SIMD4<Float>>) {
        withUnsafeTemporaryAllocation(of: UnsafePointer<SIMD4<Float>>.self, capacity: taps) { inputs in
            for k in 0..<taps { inputs[k] = rows(k) }
            let inputs = UnsafePointer(inputs.baseAddress!)
            var x = 0
            // Two pixels at a time: two independent sums hide the add's latency.
            while x + 2 <= count {
                var first = SIMD4<Float>.zero, second = SIMD4<Float>.zero
                for k in 0..<taps {
                    let row = inputs[k] + x, weight = weights[k]
                    first += row[0] * weight
                    second += row[1] * weight
                }
                output[x] = first
                output[x + 1] = second
                x += 2
            }
            if x < count {
                var sum = SIMD4<Float>.zero
                for k in 0..<taps { sum += inputs[k][x] * weights[k] }
                output[x] = sum
            }
        }
    }
}
