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
        weights.lanes.withUnsafeBufferPointer { w in
            weights.starts.withUnsafeBufferPointer { starts in
                weights.counts.withUnsafeBufferPointer { counts in
                    let stride = weights.stride
                    var x = 0
                    // Neighbours with as many taps go four at a time: independent sums hide the
                    // add's latency (one sum alone waits on each add); each pixel still adds its
                    // own products in order, so every bit is what one pixel at a time gives.
                    while x < starts.count {
                        let taps = counts[x], weightsAt = w.baseAddress! + x * stride
                        if x + 3 < starts.count, counts[x + 3] == taps, counts[x + 1] == taps, counts[x + 2] == taps {
                            let p0 = row + starts[x], p1 = row + starts[x + 1]
                            let p2 = row + starts[x + 2], p3 = row + starts[x + 3]
                            let w0 = weightsAt, w1 = w0 + stride, w2 = w1 + stride, w3 = w2 + stride
                            var a = SIMD4<Float>.zero, b = SIMD4<Float>.zero
                            var c = SIMD4<Float>.zero, d = SIMD4<Float>.zero
                            for k in 0..<taps {
                                a += p0[k] * w0[k]
                                b += p1[k] * w1[k]
                                c += p2[k] * w2[k]
                                d += p3[k] * w3[k]
                            }
                            output[x] = a
                            output[x + 1] = b
                            output[x + 2] = c
                            output[x + 3] = d
                            x += 4
                        } else {
                            let first = row + starts[x]
                            var sum = SIMD4<Float>.zero
                            for k in 0..<taps { sum += first[k] * weightsAt[k] }
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
            // Four pixels at a time: independent sums hide the add's latency.
            while x + 4 <= count {
                var p0 = SIMD4<Float>.zero, p1 = SIMD4<Float>.zero
                var p2 = SIMD4<Float>.zero, p3 = SIMD4<Float>.zero
                for k in 0..<taps {
                    let row = inputs[k] + x, weight = weights[k]
                    p0 += row[0] * weight
                    p1 += row[1] * weight
                    p2 += row[2] * weight
                    p3 += row[3] * weight
                }
                output[x] = p0
                output[x + 1] = p1
                output[x + 2] = p2
                output[x + 3] = p3
                x += 4
            }
            while x < count {
                var sum = SIMD4<Float>.zero
                for k in 0..<taps { sum += inputs[k][x] * weights[k] }
                output[x] = sum
                x += 1
            }
        }
    }
}
