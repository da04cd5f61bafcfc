/// Reduces an RGBA frame to at most 255 colours plus one transparent index, deterministically.
///
/// Median cut over a 15-bit (5 bits a channel) histogram: the box with the most pixels along its
/// longest side is split at the median until there are 255 boxes; each box's colour is the mean
/// of its pixels. Ties are broken by box order, never by hashing, so the same frame always gives
/// the same palette and the same indices. Pixels with alpha below 128 use the transparent index.
struct PaletteQuantiser {
    struct Result {
        /// RGB triples; entry `transparentIndex` (when present) is unused black.
        var palette: [UInt8]
        var indices: [UInt8]
        var transparentIndex: Int?
    }

    static func quantise(rgba: [UInt8], pixelCount: Int) -> Result {
        var histogram = [Int](repeating: 0, count: 32768)
        var sums = [SIMD3<Int>](repeating: .zero, count: 32768)
        var transparent = false
        for index in 0..<pixelCount {
            let p = index * 4
            if rgba[p + 3] < 128 {
                transparent = true
                continue
            }
            let key = Self.key(rgba[p], rgba[p + 1], rgba[p + 2])
            histogram[key] += 1
            sums[key] &+= SIMD3(Int(rgba[p]), Int(rgba[p + 1]), Int(rgba[p + 2]))
        }
        let used = (0..<32768).filter { histogram[$0] > 0 }
        var boxes: [[Int]] = used.isEmpty ? [] : [used]
        let maxColors = transparent ? 255 : 256
        while boxes.count < maxColors {
            // Split the box holding the most pixels that can still be split.
            guard let target = boxes.indices.filter({ boxes[$0].count > 1 })
                .max(by: { weight(boxes[$0], histogram) < weight(boxes[$1], histogram) }) else { break }
            let box = boxes[target]
            let channel = longestSide(box)
            let sorted = box.sorted { (component($0, channel), $0) < (component($1, channel), $1) }
            let total = weight(sorted, histogram)
            var running = 0, cut = 1
            for (offset, key) in sorted.enumerated() {
                running += histogram[key]
                if running * 2 >= total { cut = max(1, min(sorted.count - 1, offset + 1)); break }
            }
            boxes[target] = Array(sorted[..<cut])
            boxes.append(Array(sorted[cut...]))
        }
        var palette: [UInt8] = []
        var lookup = [UInt8](repeating: 0, count: 32768)
        for (index, box) in boxes.enumerated() {
            var sum = SIMD3<Int>.zero
            var count = 0
            for key in box {
                sum &+= sums[key]
                count += histogram[key]
                lookup[key] = UInt8(index)
            }
            let mean = sum / max(1, count)
            palette += [UInt8(mean.x), UInt8(mean.y), UInt8(mean.z)]
        }
        let transparentIndex: Int? = transparent ? boxes.count : nil
        if transparent { palette += [0, 0, 0] }
        var indices = [UInt8](repeating: 0, count: pixelCount)
        for index in 0..<pixelCount {
            let p = index * 4
            indices[index] = rgba[p + 3] < 128 ? UInt8(transparentIndex!)
                : lookup[Self.key(rgba[p], rgba[p + 1], rgba[p + 2])]
        }
        return Result(palette: palette, indices: indices, transparentIndex: transparentIndex)
    }

    @inline(__always)
    private static func key(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    }

    private static func component(_ key: Int, _ channel: Int) -> Int {
        (key >> (10 - channel * 5)) & 31
    }

    private static func weight(_ box: [Int], _ histogram: [Int]) -> Int {
        box.reduce(0) { $0 + histogram[$1] }
    }

    private static func longestSide(_ box: [Int]) -> Int {
        var best = 0, bestRange = -1
        for channel in 0..<3 {
            let values = box.map { component($0, channel) }
            let range = (values.max() ?? 0) - (values.min() ?? 0)
            if range > bestRange { (best, bestRange) = (channel, range) }
        }
        return best
    }
}
