import Rasterizing
import Testing
import TesseraCore

/// A Display P3 render for an sRGB entry is converted as Xcode converts it (issue 26: renders in
/// the set's gamut). Expected values worked by hand from the sRGB curve and the P3→sRGB matrix.
@Suite("Display P3 to sRGB")
struct DisplayP3ConversionTests {
    @Test("a P3 colour inside sRGB maps to its sRGB value, greys and alpha are kept, out-of-gamut green clips")
    func converts() throws {
        var bitmap = try Bitmap(width: 4, height: 1, format: .rgba8, alpha: .straight, colorSpace: .displayP3, pixels: [
            128, 64, 32, 255,   // P3 (128, 64, 32) is sRGB (138, 59, 21)
            119, 119, 119, 77,  // a grey stays the grey it was, with its alpha
            0, 255, 0, 255,     // P3's green is beyond sRGB: clipped to sRGB's green
            255, 255, 255, 0,   // white stays white
        ])
        DisplayP3Conversion.toSRGB(&bitmap)
        #expect(bitmap.colorSpace == .sRGB)
        let first = bitmap.pixels[0 ..< 4].map(Int.init)
        #expect(abs(first[0] - 138) <= 1 && abs(first[1] - 59) <= 1 && abs(first[2] - 21) <= 1 && first[3] == 255, "\(first)")
        #expect(Array(bitmap.pixels[4 ..< 8]) == [119, 119, 119, 77])
        #expect(Array(bitmap.pixels[8 ..< 12]) == [0, 255, 0, 255])
        #expect(Array(bitmap.pixels[12 ..< 16]) == [255, 255, 255, 0])
    }
}
