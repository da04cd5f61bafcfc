/// Undoes PNG's five row filters (None, Sub, Up, Average, Paeth).
///
/// `out` and `prior` must each have `bpp` zero bytes just before them, so that the first pixel's
/// left neighbours read as zero without a separate loop; `prior` is all zeros for the first row.
enum PNGUnfilter {
    /// Rebuilds one row of `count` bytes from `raw` (the bytes after the filter-type byte).
    /// Returns false for a filter type PNG does not define.
    static func apply(filter: UInt8, raw: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int) -> Bool {
        switch filter {
        case 0: out.update(from: raw, count: count)
        case 2: up(raw, prior, out, count)
        // A constant bpp lets each loop keep its left-hand pixel in registers.
        case 1:
            switch bpp {
            case 3: sub(raw, out, count, bpp: 3)
            case 4: sub(raw, out, count, bpp: 4)
            default: sub(raw, out, count, bpp: bpp)
            }
        case 3:
            switch bpp {
            case 3: average(raw, prior, out, count, bpp: 3)
            case 4: average(raw, prior, out, count, bpp: 4)
            default: average(raw, prior, out, count, bpp: bpp)
            }
        case 4:
            switch bpp {
            case 3: paeth(raw, prior, out, count, bpp: 3)
            case 4: paeth(raw, prior, out, count, bpp: 4)
            default: paeth(raw, prior, out, count, bpp: bpp)
            }
        default: return false
        }
        return true
    }

    @inline(__always)
    private static func up(_ raw: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                           _ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
        for index in 0..<count { out[index] = raw[index] &+ prior[index] }
    }

    @inline(__always)
    private static func sub(_ raw: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ count: Int, bpp: Int) {
        for index in 0..<count { out[index] = raw[index] &+ out[index &- bpp] }
    }

    @inline(__always)
    private static func average(_ raw: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                                _ out: UnsafeMutablePointer<UInt8>, _ count: Int, bpp: Int) {
        for index in 0..<count {
            let mean = (UInt16(out[index &- bpp]) &+ UInt16(prior[index])) &>> 1
            out[index] = raw[index] &+ UInt8(truncatingIfNeeded: mean)
        }
    }

    @inline(__always)
    private static func paeth(_ raw: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                              _ out: UnsafeMutablePointer<UInt8>, _ count: Int, bpp: Int) {
        for index in 0..<count {
            let a = Int(out[index &- bpp]), b = Int(prior[index]), c = Int(prior[index &- bpp])
            let towardB = b &- c, towardA = a &- c
            let pa = abs(towardB), pb = abs(towardA), pc = abs(towardB &+ towardA)
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            out[index] = raw[index] &+ UInt8(truncatingIfNeeded: predictor)
        }
    }
}
