import CodecFixtures
import Downscaling
import Testing
import TesseraCore

@Suite("Resampler")
struct ResamplerTests {
    @Test("a flat colour stays exactly flat with every filter, edges included", arguments: ResamplingFilter.allCases)
    func flatStaysFlat(filter: ResamplingFilter) throws {
        let pixels = [UInt8](repeating: 0, count: 31 * 17 * 4).enumerated().map { [200, 120, 40, 255][$0.offset % 4] }
        let flat = try Bitmap(width: 31, height: 17, format: .rgba8, alpha: .opaque, pixels: pixels.map(UInt8.init))
        let small = try Resampler(filter: filter).resize(flat, width: 10, height: 6)
        #expect(small.pixels == [UInt8](repeating: 0, count: 10 * 6 * 4).enumerated().map { [200, 120, 40, 255][$0.offset % 4] })
    }

    @Test("box averages exactly the area each output pixel covers")
    func boxIsAreaAverage() throws {
        // 3 → 2 pixels: output 0 covers source 0 and half of 1.
        let row = try Bitmap(width: 3, height: 1, format: .rgba8, alpha: .opaque,
                             pixels: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255])
        let out = try Resampler(filter: .box).resize(row, width: 2, height: 1)
        #expect(out.pixels == [30, 30, 30, 255, 150, 150, 150, 255])
    }

    @Test("premultiplied filtering leaves no dark fringe at alpha edges")
    func noDarkFringe() throws {
        // Opaque red on the left half, transparent black on the right.
        var pixels: [UInt8] = []
        for _ in 0..<8 { for x in 0..<16 { pixels += x < 8 ? [255, 0, 0, 255] : [0, 0, 0, 0] } }
        let image = try Bitmap(width: 16, height: 8, format: .rgba8, alpha: .straight, pixels: pixels)
        for filter in ResamplingFilter.allCases {
            let small = try Resampler(filter: filter).resize(image, width: 5, height: 3)
            for index in stride(from: 0, to: small.pixels.count, by: 4) where small.pixels[index + 3] > 0 {
                #expect(small.pixels[index] >= 250, "\(filter): red dropped to \(small.pixels[index])")
                #expect(small.pixels[index + 1] == 0 && small.pixels[index + 2] == 0)
            }
        }
    }

    @Test("1-pixel-wide, 1-pixel-tall and 1×1 targets work and keep the edge rows")
    func degenerateSizes() throws {
        let image = try Generated.gradient(width: 40, height: 30)
        #expect(try Resampler().resize(image, width: 1, height: 30).height == 30)
        #expect(try Resampler().resize(image, width: 40, height: 1).width == 40)
        let dot = try Resampler(filter: .box).resize(image, width: 1, height: 1)
        #expect(dot.width == 1 && dot.height == 1 && dot.pixels[3] > 0)
        let tall = try Bitmap(width: 1, height: 9, format: .rgba8, alpha: .opaque,
                              pixels: (0..<9).flatMap { [UInt8($0 * 30), 0, 0, 255] })
        let shorter = try Resampler(filter: .box).resize(tall, width: 1, height: 3)
        #expect(shorter.pixels == [30, 0, 0, 255, 120, 0, 0, 255, 210, 0, 0, 255])
        #expect(throws: TesseraError.self) { try Resampler().resize(image, width: 0, height: 3) }
    }
}
