/// PNG's row filters and libpng's cost estimate, 16 bytes at a time with SIMD types and a scalar
/// tail. Every function gives the bytes of the scalar definition (PNG spec 9.2–9.4); they only
/// trade the per-byte branches for lane-wise selects.
enum PNGFilterLanes {
    typealias Bytes = SIMD16<UInt8>
    typealias Wide = SIMD16<Int16>

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> Bytes {
        UnsafeRawPointer(pointer).loadUnaligned(as: Bytes.self)
    }

    @inline(__always)
    private static func store(_ value: Bytes, _ pointer: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Bytes.self)
    }

    /// Sub for bytes `from..<count`: `row[x] - row[x - bpp]`.
    static func sub(_ row: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                    from start: Int, count: Int, bpp: Int) {
        var x = start
        while x + 16 <= count {
            store(load(row + x) &- load(row + x - bpp), target + x)
            x += 16
        }
        while x < count { target[x] = row[x] &- row[x - bpp]; x += 1 }
    }

    /// Up for the whole row: `row[x] - above[x]`.
    static func up(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                   into target: UnsafeMutablePointer<UInt8>, count: Int) {
        var x = 0
        while x + 16 <= count {
            store(load(row + x) &- load(above + x), target + x)
            x += 16
        }
        while x < count { target[x] = row[x] &- above[x]; x += 1 }
    }

    /// Average for bytes `from..<count`: `row[x] - ⌊(row[x - bpp] + above[x]) / 2⌋`.
    static func average(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                        into target: UnsafeMutablePointer<UInt8>, from start: Int, count: Int, bpp: Int) {
        var x = start
        while x + 16 <= count {
            let a = load(row + x - bpp), b = load(above + x)
            // ⌊(a + b) / 2⌋ without leaving 8 bits.
            let mean = (a & b) &+ ((a ^ b) &>> 1)
            store(load(row + x) &- mean, target + x)
            x += 16
        }
        while x < count {
            target[x] = row[x] &- UInt8((UInt16(row[x - bpp]) + UInt16(above[x])) >> 1)
            x += 1
        }
    }

    /// Paeth for bytes `from..<count`: the predictor picks left, above or upper-left, whichever
    /// is nearest left + above - upper-left, preferring them in that order on ties.
    static func paeth(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                      into target: UnsafeMutablePointer<UInt8>, from start: Int, count: Int, bpp: Int) {
        var x = start
        while x + 16 <= count {
            let a = Wide(truncatingIfNeeded: load(row + x - bpp))
            let b = Wide(truncatingIfNeeded: load(above + x))
            let c = Wide(truncatingIfNeeded: load(above + x - bpp))
            let towardsB = b &- c, towardsA = a &- c
            let pa = magnitude(towardsB), pb = magnitude(towardsA), pc = magnitude(towardsA &+ towardsB)
            var predicted = c
            predicted.replace(with: b, where: pb .<= pc)
            predicted.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
            store(load(row + x) &- Bytes(truncatingIfNeeded: predicted), target + x)
            x += 16
        }
        while x < count {
            target[x] = row[x] &- PNGRowFilter.predictor(row[x - bpp], above[x], above[x - bpp])
            x += 1
        }
    }

    /// libpng's cost of a filtered row: the sum of |byte| with each byte read as signed.
    static func signedMagnitudeSum(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var total = 0, x = 0
        while x + 16 <= count {
            // Lanes hold at most 128 per step: 256 steps stay below 2^16.
            var lanes = SIMD16<UInt16>.zero
            let end = min(count, x + 256 * 16)
            while x + 16 <= end {
                let value = load(bytes + x)
                // min(v, 256 - v) is |v| read as signed, 128 included.
                lanes &+= SIMD16<UInt16>(truncatingIfNeeded: pointwiseMin(value, 0 &- value))
                x += 16
            }
            total += Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while x < count {
            let value = bytes[x]
            total += value < 128 ? Int(value) : 256 - Int(value)
            x += 1
        }
        return total
    }

    @inline(__always)
    private static func magnitude(_ value: Wide) -> Wide {
        pointwiseMax(value, 0 &- value)
    }
}
