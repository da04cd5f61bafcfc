/// PNG's five row filters (None, Sub, Up, Average, Paeth), chosen row by row by the smallest sum
/// of the filtered bytes read as signed: libpng's own heuristic, one pass a row, and within a
/// fraction of a percent of the best fixed choice on photos and flat artwork alike.
///
/// Each candidate row is computed 16 bytes at a time (`PNGFilterLanes`) into its own scratch row
/// and the cheapest is copied out: the bytes are exactly the scalar definitions' (PNG spec 9.2),
/// at a fraction of the per-byte branching cost.
enum PNGRowFilter {
    static let types = 5

    /// The filtered scanlines (each a filter-type byte then the row) of tightly packed 8-bit rows.
    static func filter(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        return filter(width: width, height: height, bytesPerPixel: bytesPerPixel) { y, target in
            target.update(from: pixels.baseAddress! + y * rowBytes, count: rowBytes)
        }
    }

    /// The filtered scanlines of rows that `row(y, target)` writes one at a time, in order: only
    /// this row and the one above are held besides the output, never the whole unfiltered image.
    static func filter(width: Int, height: Int, bytesPerPixel: Int,
                       row: (Int, UnsafeMutablePointer<UInt8>) -> Void) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        // Two unfiltered rows, the current and the one above (zero above the first).
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 2)
        rows.initialize(repeating: 0, count: rowBytes * 2)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * types)
        defer {
            rows.deallocate()
            scratch.deallocate()
        }
        return [UInt8](unsafeUninitializedCapacity: height * (rowBytes + 1)) { out, initialized in
            for y in 0..<height {
                let current = rows + (y % 2) * rowBytes
                let above = UnsafePointer(rows + ((y + 1) % 2) * rowBytes)
                row(y, current)
                filterRow(current, above: above, count: rowBytes, bpp: bytesPerPixel, scratch: scratch,
                          into: out.baseAddress! + y * (rowBytes + 1))
            }
            initialized = height * (rowBytes + 1)
        }
    }

    /// One scanline: the filter type with the smallest cost, then `row` filtered with it, written
    /// to `line` (`count + 1` bytes). `scratch` holds `types * count` bytes.
    static func filterRow(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int,
                          scratch: UnsafeMutablePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>) {
        var best = Int.max, type = 0
        for candidate in 0..<types {
            let target = scratch + candidate * count
            apply(UInt8(candidate), row, above, into: target, count: count, bpp: bpp)
            // Ties keep the lower type, as libpng does.
            let cost = PNGFilterLanes.signedMagnitudeSum(target, count: count)
            if cost < best { best = cost; type = candidate }
        }
        line[0] = UInt8(type)
        (line + 1).update(from: scratch + type * count, count: count)
    }

    /// One row filtered with `type` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth).
    static func apply(_ type: UInt8, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                      into target: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int) {
        let lead = min(bpp, count)
        switch type {
        case 0:
            target.update(from: row, count: count)
        case 1:
            target.update(from: row, count: lead)
            PNGFilterLanes.sub(row, into: target, from: lead, count: count, bpp: bpp)
        case 2:
            PNGFilterLanes.up(row, above, into: target, count: count)
        case 3:
            for x in 0..<lead { target[x] = row[x] &- (above[x] >> 1) }
            PNGFilterLanes.average(row, above, into: target, from: lead, count: count, bpp: bpp)
        default:
            // With nothing to the left, Paeth predicts from above.
            for x in 0..<lead { target[x] = row[x] &- above[x] }
            PNGFilterLanes.paeth(row, above, into: target, from: lead, count: count, bpp: bpp)
        }
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
