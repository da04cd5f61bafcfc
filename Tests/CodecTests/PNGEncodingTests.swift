import Decoding
@testable import Encoding
import Testing
import TesseraCore

@Suite("PNG encoding")
struct PNGEncodingTests {
    private static let encoders = PNGEffort.allCases.map { PNGEncoder(effort: $0) } + [PNGEncoder(compressionLevel: 0)]

    private func decode(_ bytes: [UInt8]) throws -> Bitmap {
        try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "encoded.png")).bitmap
    }

    @Test("every valid PngSuite image comes back with identical pixels at every effort and at level 0")
    func pngSuiteRoundTrips() throws {
        let names = PNGDecodingTests.valid
        #expect(names.count == 161)
        for name in names {
            let original = try Fixtures.decode("png/pngsuite/\(name)").bitmap
            for encoder in Self.encoders {
                let back = try decode(try encoder.encode(original, iccProfile: nil))
                #expect(back.width == original.width && back.height == original.height, "\(name)")
                #expect(back.pixels == original.pixels, "\(name) at level \(encoder.compressionLevel)")
            }
        }
    }

    @Test("photos and noise come back with identical pixels, and more effort never gives more bytes")
    func photosRoundTripAndEffortsOrder() throws {
        let images = [try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap,
                      try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap,
                      try Generated.noise(width: 97, height: 61, seed: 3),
                      try Generated.gradient(width: 300, height: 7)]
        for image in images {
            var sizes: [Int] = []
            for encoder in Self.encoders {
                let bytes = try encoder.encode(image, iccProfile: nil)
                #expect(try decode(bytes).pixels == image.pixels)
                sizes.append(bytes.count)
            }
            #expect(sizes[0] >= sizes[1] && sizes[1] >= sizes[2], "\(sizes)")
            #expect(sizes[3] >= sizes[0], "stored blocks are never smaller: \(sizes)")
        }
    }

    @Test("each row takes the filter with the smallest sum of signed bytes")
    func rowFilterChoice() throws {
        // Row 0 is a ramp (Sub makes it constant 1s), row 1 repeats it (Up gives zeros), row 2 is zeros (None).
        let ramp = (0..<16).map { UInt8($0 * 3) }
        let rows = ramp + ramp + [UInt8](repeating: 0, count: 16)
        let filtered = rows.withUnsafeBufferPointer { PNGRowFilter.filter($0, width: 16, height: 3, bytesPerPixel: 1) }
        #expect(filtered.count == 3 * 17)
        #expect([filtered[0], filtered[17], filtered[34]] == [1, 2, 0])
        #expect(Array(filtered[1...16]) == [0] + [UInt8](repeating: 3, count: 15))
        #expect(filtered[18...33].allSatisfy { $0 == 0 })
    }

    @Test("the compression level overrides the effort's, clamped to 0–12, and is folded into the options key")
    func levelOverridesEffort() {
        #expect(PNGEncoder(effort: .max).compressionLevel == 12)
        #expect(PNGEncoder(effort: .fast, compressionLevel: 9).compressionLevel == 9)
        #expect(PNGEncoder(compressionLevel: 40).compressionLevel == 12)
        #expect(PNGEncoder(effort: .fast).optionsKey != PNGEncoder(effort: .max).optionsKey)
    }

    @Test("the file is IHDR, iCCP, IDAT and IEND with valid CRCs")
    func chunkLayout() throws {
        let source = try Fixtures.decode("still/pillow/jpeg/pil_sample_rgb.jpg")
        let bytes = try PNGEncoder().encode(source.bitmap, iccProfile: source.info.iccProfile)
        #expect(Array(bytes.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10])
        var offset = 8, types: [String] = []
        while offset < bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let stored = bytes[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let crc = Array(bytes[offset + 4..<offset + 8 + length]).withUnsafeBytes { ZlibStream.crc32(0, $0) }
            #expect(crc == stored, "\(type)")
            types.append(type)
            offset += 12 + length
        }
        #expect(offset == bytes.count)
        #expect(types == ["IHDR", "iCCP", "IDAT", "IEND"])
    }
}
