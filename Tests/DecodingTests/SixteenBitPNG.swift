/// 16-bit grayscale PNGs for tests: Tessera's encoders write 8 bits, and the tests need 16-bit
/// inputs with known sample values.
enum SixteenBitPNG {
    static func gray(width: Int, height: Int, samples: [UInt16]) -> [UInt8] {
        let bytes = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
        return HandMadePNG(width: width, height: height, colorType: 0, bitDepth: 16, samples: bytes).bytes()
    }
}
