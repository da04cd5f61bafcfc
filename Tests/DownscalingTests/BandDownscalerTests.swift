import CodecFixtures
@testable import Downscaling
import Decoding
import Testing
import TesseraCore

/// The simple reference: the same stages as the band downscaler, each applied to the whole image
/// held in memory. It shares only the per-pixel arithmetic (`FilterKernels`, `PixelConversion`,
/// `ResamplingWeights`), so any difference comes from how the bands are cut.
enum WholeImageReference {
    static func downscale(_ bitmap: Bitmap, geometry: BandDownscaler.Geometry, filter: ResamplingFilter,
                          linearLight: Bool = false) throws -> Bitmap {
        let conversion = PixelConversion(alpha: bitmap.alpha, linearLight: linearLight)
        let width = bitmap.width, height = bitmap.height
        // 1. Every row to premultiplied floats.
        var rows = [[SIMD4<Float>]](repeating: [], count: height)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                var row = [SIMD4<Float>](repeating: .zero, count: width)
                row.withUnsafeMutableBufferPointer {
                    conversion.load(pixels.baseAddress! + y * bitmap.rowStride, count: width, into: $0.baseAddress!)
                }
                rows[y] = row
            }
        }
        // 2. Box-average the whole image.
        let boxWidth = (width + geometry.boxX - 1) / geometry.boxX
        var boxed: [[SIMD4<Float>]] = []
        if geometry.boxX == 1 && geometry.boxY == 1 {
            boxed = rows
        } else {
            for top in stride(from: 0, to: height, by: geometry.boxY) {
                var sums = [SIMD4<Float>](repeating: .zero, count: boxWidth)
                let count = min(geometry.boxY, height - top)
                for y in top..<top + count {
                    rows[y].withUnsafeBufferPointer { row in
                        sums.withUnsafeMutableBufferPointer {
                            FilterKernels.accumulate(row.baseAddress!, count: width, factor: geometry.boxX, into: $0.baseAddress!)
                        }
                    }
                }
                var averaged = [SIMD4<Float>](repeating: .zero, count: boxWidth)
                sums.withUnsafeMutableBufferPointer { s in
                    averaged.withUnsafeMutableBufferPointer {
                        FilterKernels.average(s.baseAddress!, count: boxWidth, factor: geometry.boxX, inputWidth: width,
                                              rows: count, into: $0.baseAddress!)
                    }
                }
                boxed.append(averaged)
            }
        }
        // 3. Horizontal pass over every row, 4. vertical pass for every output row.
        let horizontal = ResamplingWeights(inputPixels: boxWidth, logicalSize: geometry.logicalWidth / Double(geometry.boxX),
                                           outputSize: geometry.outputWidth, filter: filter)
        let vertical = ResamplingWeights(inputPixels: boxed.count, logicalSize: geometry.logicalHeight / Double(geometry.boxY),
                                         outputSize: geometry.outputHeight, filter: filter)
        let wide = boxed.map { row -> [SIMD4<Float>] in
            var out = [SIMD4<Float>](repeating: .zero, count: geometry.outputWidth)
            row.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBufferPointer { FilterKernels.convolve(r.baseAddress!, weights: horizontal, into: $0.baseAddress!) }
            }
            return out
        }
        var pixels = [UInt8](repeating: 0, count: geometry.outputWidth * geometry.outputHeight * 4)
        var outputRow = [SIMD4<Float>](repeating: .zero, count: geometry.outputWidth)
        for y in 0..<geometry.outputHeight {
            let start = vertical.starts[y]
            vertical.weights.withUnsafeBufferPointer { weights in
                outputRow.withUnsafeMutableBufferPointer { out in
                    FilterKernels.combine(count: geometry.outputWidth, taps: vertical.counts[y],
                                          weights: weights.baseAddress! + y * vertical.stride,
                                          rows: { k in wide[start + k].withUnsafeBufferPointer { $0.baseAddress! } },
                                          into: out.baseAddress!)
                }
            }
            pixels.withUnsafeMutableBufferPointer { p in
                outputRow.withUnsafeBufferPointer {
                    conversion.store($0.baseAddress!, count: geometry.outputWidth, into: p.baseAddress! + y * geometry.outputWidth * 4)
                }
            }
        }
        return try Bitmap(width: geometry.outputWidth, height: geometry.outputHeight, format: .rgba8, alpha: bitmap.alpha,
                          colorSpace: bitmap.colorSpace, pixels: pixels)
    }
}

/// Serves a bitmap's rows in bands of a given height (the decoder's choice, not the downscaler's).
final class ChoppyRowSource: RowSource {
    let inner: BitmapRowSource
    let maxRows: Int
    init(_ bitmap: Bitmap, maxRows: Int) throws {
        inner = try BitmapRowSource(bitmap)
        self.maxRows = maxRows
    }
    var width: Int { inner.width }
    var height: Int { inner.height }
    var rowsRead: Int { inner.rowsRead }
    var alpha: AlphaMode { inner.alpha }
    var colorSpace: ColorSpace { inner.colorSpace }
    var warnings: [String] { [] }
    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        try inner.readRows(into: buffer, stride: stride, count: min(count, maxRows))
    }
    func finish() throws(TesseraError) {}
}

@Suite("Band downscaler")
struct BandDownscalerTests {
    @Test("tiling is invisible: any band height gives the bit-identical output of the whole-image reference",
          arguments: ResamplingFilter.allCases)
    func tilingIsInvisible(filter: ResamplingFilter) throws {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<6 {
            let width = Int.random(in: 1...90, using: &generator), height = Int.random(in: 1...90, using: &generator)
            let image = try Generated.noise(width: width, height: height, seed: UInt64(trial * 31 + width))
            let outWidth = Int.random(in: 1...max(1, width), using: &generator)
            let outHeight = Int.random(in: 1...max(1, height), using: &generator)
            let plan = ShrinkPlan.plan(sourceWidth: width, sourceHeight: height, targetWidth: outWidth, targetHeight: outHeight)
            let geometry = BandDownscaler.Geometry(outputWidth: outWidth, outputHeight: outHeight,
                                                   logicalWidth: Double(width), logicalHeight: Double(height),
                                                   boxX: plan.boxX, boxY: plan.boxY)
            let reference = try WholeImageReference.downscale(image, geometry: geometry, filter: filter)
            for band in [1, 2, 3, 7, Int.random(in: 1...100, using: &generator), height] {
                for decoderRows in [1, 5, height] {
                    let source = try ChoppyRowSource(image, maxRows: decoderRows)
                    let output = try BandDownscaler(filter: filter, bandRows: band).downscale(source, geometry: geometry)
                    #expect(output.pixels == reference.pixels,
                            "\(width)×\(height) → \(outWidth)×\(outHeight), band \(band), decoder rows \(decoderRows)")
                }
            }
        }
    }

    @Test("several targets from one pass equal each target made alone")
    func multipleTargets() throws {
        let image = try Generated.noise(width: 120, height: 80, seed: 9)
        let geometries = [(40, 27), (80, 53), (13, 9)].map {
            BandDownscaler.Geometry(outputWidth: $0.0, outputHeight: $0.1, logicalWidth: 120, logicalHeight: 80)
        }
        let together = try BandDownscaler().downscale(try BitmapRowSource(image), geometries: geometries)
        for (geometry, output) in zip(geometries, together) {
            #expect(try BandDownscaler().downscale(try BitmapRowSource(image), geometry: geometry).pixels == output.pixels)
        }
    }

    @Test("an image 6,000,000 pixels wide and 2 tall downscales to 1×1 and to 600×1")
    func extremelyWide() throws {
        let count = 6_000_000 * 2 * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let pattern: [UInt8] = [50, 100, 150, 255]
            for index in 0..<count { buffer[index] = pattern[index & 3] }
            initialized = count
        }
        let image = try Bitmap(width: 6_000_000, height: 2, format: .rgba8, alpha: .opaque, pixels: pixels)
        for (width, height) in [(1, 1), (600, 1)] {
            let out = try Resampler().resize(image, width: width, height: height)
            #expect(out.width == width && out.height == height)
            #expect(Array(out.pixels.prefix(4)) == [50, 100, 150, 255] && Array(out.pixels.suffix(4)) == [50, 100, 150, 255])
        }
    }

    @Test("the first and last rows and columns are present: no black or transparent edge")
    func noEdges() throws {
        for (width, height, outWidth, outHeight) in [(97, 61, 10, 7), (64, 64, 16, 16), (1000, 3, 7, 1), (3, 1000, 1, 7)] {
            let flat = try Bitmap(width: width, height: height, format: .rgba8, alpha: .straight,
                                  pixels: (0..<(width * height)).flatMap { _ in [10, 200, 90, 255] as [UInt8] })
            for filter in ResamplingFilter.allCases {
                let out = try Resampler(filter: filter).resize(flat, width: outWidth, height: outHeight)
                let pixels = stride(from: 0, to: out.pixels.count, by: 4).map { Array(out.pixels[$0..<$0 + 4]) }
                #expect(pixels.allSatisfy { $0 == [10, 200, 90, 255] }, "\(filter) \(width)×\(height)")
            }
        }
    }

    @Test("a band buffer smaller than one row still works: the budget never divides by zero")
    func tinyBudget() throws {
        let geometry = BandDownscaler.Geometry(outputWidth: 10, outputHeight: 10, logicalWidth: 5000, logicalHeight: 30)
        #expect(BandDownscaler.bandRows(sourceWidth: 5000, geometry: geometry, filter: .lanczos3, memoryBudget: 1) == 1)
        #expect(BandDownscaler.bandRows(sourceWidth: 5000, geometry: geometry, filter: .lanczos3, memoryBudget: 0) == 1)
    }

    @Test("linear light brightens a fine black-and-white checkerboard to mid-gray light, not 50% code value")
    func linearLight() throws {
        let board = try Bitmap(width: 64, height: 64, format: .rgba8, alpha: .opaque,
                               pixels: (0..<(64 * 64)).flatMap { index -> [UInt8] in
                                   let on = (index % 64 + index / 64) % 2 == 0
                                   return on ? [255, 255, 255, 255] : [0, 0, 0, 255]
                               })
        let encoded = try Resampler(filter: .box).resize(board, width: 8, height: 8)
        let linear = try Resampler(filter: .box, linearLight: true).resize(board, width: 8, height: 8)
        #expect(encoded.pixels[0] == 128)
        #expect(linear.pixels[0] == 188)  // sRGB encoding of 50% linear light
    }
}

@Suite("Downscale targets and shrink plans")
struct DownscaleTargetTests {
    @Test("fit keeps the aspect ratio inside the box and never upscales unless asked")
    func fit() {
        #expect(DownscaleTarget.fit(width: 1024, height: 1024).size(forWidth: 8000, height: 6000) == (1024, 768))
        #expect(DownscaleTarget.fit(width: 1024, height: 1024).size(forWidth: 6000, height: 8000) == (768, 1024))
        #expect(DownscaleTarget.fit(width: 1024, height: 1024).size(forWidth: 500, height: 300) == (500, 300))
        #expect(DownscaleTarget.fit(width: 1000, height: 1000).size(forWidth: 500, height: 250, allowUpscale: true) == (1000, 500))
    }

    @Test("max-pixels scales each side by the square root of the ratio (not the ratio, SDWebImage's bug)")
    func maxPixels() {
        // 4000×3000 = 12 MP into 3 MP: each side halves, not quarters.
        #expect(DownscaleTarget.maxPixels(3_000_000).size(forWidth: 4000, height: 3000) == (2000, 1500))
        #expect(DownscaleTarget.maxBytes(12_000_000).size(forWidth: 4000, height: 3000) == (2000, 1500))
        #expect(DownscaleTarget.maxPixels(1).size(forWidth: 4000, height: 3000) == (1, 1))
        #expect(DownscaleTarget.maxPixels(100).size(forWidth: 6_000_000, height: 2) == (100, 1))
        let size = DownscaleTarget.maxPixels(1_000_000).size(forWidth: 3001, height: 1999)
        #expect(size.width * size.height <= 1_000_000 && size.width > 1200)
    }

    @Test("scale and exact")
    func scaleAndExact() {
        #expect(DownscaleTarget.scale(0.5).size(forWidth: 101, height: 51) == (51, 26))
        #expect(DownscaleTarget.scale(2).size(forWidth: 10, height: 10) == (10, 10))
        #expect(DownscaleTarget.exact(width: 3, height: 9).size(forWidth: 10, height: 10) == (3, 9))
    }

    @Test("shrink-on-load takes the largest DCT factor leaving at least 2×, then a box leaving 2–4×")
    func shrinkPlan() {
        let jpeg = [1, 2, 4, 8]
        #expect(ShrinkPlan.plan(sourceWidth: 8000, sourceHeight: 6000, targetWidth: 1024, targetHeight: 768, denominators: jpeg)
                == ShrinkPlan(decodeDenominator: 2, boxX: 1, boxY: 1))
        #expect(ShrinkPlan.plan(sourceWidth: 16000, sourceHeight: 12000, targetWidth: 256, targetHeight: 192, denominators: jpeg)
                == ShrinkPlan(decodeDenominator: 8, boxX: 3, boxY: 3))
        #expect(ShrinkPlan.plan(sourceWidth: 8000, sourceHeight: 6000, targetWidth: 1024, targetHeight: 768)
                == ShrinkPlan(decodeDenominator: 1, boxX: 3, boxY: 3))
        #expect(ShrinkPlan.plan(sourceWidth: 100, sourceHeight: 100, targetWidth: 60, targetHeight: 60, denominators: jpeg)
                == ShrinkPlan(decodeDenominator: 1, boxX: 1, boxY: 1))
    }
}

@Suite("Pixel conversion")
struct PixelConversionTests {
    /// Every quarter step from -10 to 266 with its neighbouring floats, the infinities, NaN, -0 and
    /// the floats just below a half.
    private static let probes: [Float] = {
        var values: [Float] = [.nan, -.infinity, .infinity, -1e9, 1e9, -0.0, 0.49999997, 254.49998, 255.00002]
        for step in -40...(256 * 4 + 40) {
            let value = Float(step) / 4
            values += [value, value.nextDown, value.nextUp]
        }
        return values
    }()

    @Test("rounding to bytes without roundf gives round-half-away-then-clamp for every quarter step, the float just below each half, and NaN")
    func roundingMatchesRoundf() {
        for value in Self.probes {
            let expected = UInt8(min(255, max(0, value.rounded())))
            #expect(PixelConversion.clampToByte(value) == expected, "\(value)")
        }
    }

    @Test("four channels rounded at once give each channel's clampToByte, in every lane")
    func vectorRoundingMatchesScalar() {
        let values = Self.probes
        for (index, value) in values.enumerated() {
            let lanes = SIMD4<Float>(value, values[(index + 1) % values.count],
                                     values[(index + 7) % values.count], values[(index + 101) % values.count])
            let bytes = PixelConversion.clampToBytes(lanes)
            for lane in 0..<4 {
                #expect(bytes[lane] == PixelConversion.clampToByte(lanes[lane]), "\(lanes)")
            }
        }
    }
}
