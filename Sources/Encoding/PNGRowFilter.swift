/// PNG's five row filters (None, Sub, Up, Average, Paeth), chosen row by row by the smallest sum
/// of the filtered bytes read as signed: libpng's own heuristic, one pass a row, and within a
/// fraction of a percent of the best fixed choice on photos and flat artwork alike.
enum PNGRowFilter {
    /// The filtered scanlines (each a filter-type byte then the row) of tightly packed 8-bit rows.
    static func filter(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        let zeroRow = [UInt8](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: height * (rowBytes + 1)) { out, initialized in
            zeroRow.withUnsafeBufferPointer { zero in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * rowBytes
                    let above = y == 0 ? zero.baseAddress! : row - rowBytes
                    let target = out.baseAddress! + y * (rowBytes + 1)
                    let type = cheapest(row, above, count: rowBytes, bpp: bytesPerPixel)
                    target[0] = type
                    apply(type, row, above, into: target + 1, count: rowBytes, bpp: bytesPerPixel)
                }
            }
            initialized = height * (rowBytes + 1)
        }
    }

    /// The filter whose output has the smallest sum of absolute signed bytes (ties: lower type).
    private static func cheapest(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int,
                                 bpp: Int) -> UInt8 {
        var none = 0, sub = 0, up = 0, average = 0, paeth = 0
        for x in 0..<count {
            let value = row[x], b = above[x]
            let a = x >= bpp ? row[x - bpp] : 0, c = x >= bpp ? above[x - bpp] : 0
            none &+= cost(value)
            sub &+= cost(value &- a)
            up &+= cost(value &- b)
            average &+= cost(value &- UInt8((UInt16(a) + UInt16(b)) >> 1))
            paeth &+= cost(value &- predictor(a, b, c))
        }
        var best = none, type: UInt8 = 0
        if sub < best { best = sub; type = 1 }
        if up < best { best = up; type = 2 }
        if average < best { best = average; type = 3 }
        if paeth < best { type = 4 }
        return type
    }

    private static func apply(_ type: UInt8, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                              into target: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int) {
        let lead = min(bpp, count)
        switch type {
        case 0:
            target.update(from: row, count: count)
        case 1:
            target.update(from: row, count: lead)
            for x in lead..<count { target[x] = row[x] &- row[x - bpp] }
        case 2:
            for x in 0..<count { target[x] = row[x] &- above[x] }
        case 3:
            for x in 0..<lead { target[x] = row[x] &- (above[x] >> 1) }
            for x in lead..<count { target[x] = row[x] &- UInt8((UInt16(row[x - bpp]) + UInt16(above[x])) >> 1) }
        default:
            for x in 0..<lead { target[x] = row[x] &- above[x] }
            for x in lead..<count { target[x] = row[x] &- predictor(row[x - bpp], above[x], above[x - bpp]) }
        }
    }

    /// |v| of the byte read as a signed number.
    @inline(__always)
    private static func cost(_ value: UInt8) -> Int {
        value < 128 ? Int(value) : 256 - Int(value)
    }

    /// The Paeth predictor (PNG spec 9.4): whichever of left, above, upper-left is nearest a + b - c.
    @inline(__always)
    static func predictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
