import CodecFixtures
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
        let names = Fixtures.pngSuiteValid
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

    @Test("the vectorised filters give the scalar definitions' bytes and choice for every pixel size and tail")
    func vectorisedFiltersMatchScalarDefinitions() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for bpp in 1...4 {
            for width in [1, 5, 16, 17, 33, 100] {
                let height = 7
                // Noise with runs, so every filter wins some rows and Paeth meets its ties.
                let pixels = (0..<width * bpp * height).map { index -> UInt8 in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return index % 11 < 4 ? 128 : UInt8(truncatingIfNeeded: state >> 56)
                }
                let filtered = pixels.withUnsafeBufferPointer {
                    PNGRowFilter.filter($0, width: width, height: height, bytesPerPixel: bpp)
                }
                #expect(filtered == Self.scalarFiltered(pixels, width: width, height: height, bpp: bpp),
                        "bpp \(bpp), width \(width)")
            }
        }
    }

    /// PNG spec 9.2–9.4 byte by byte, with libpng's smallest-sum-of-signed-bytes choice.
    private static func scalarFiltered(_ pixels: [UInt8], width: Int, height: Int, bpp: Int) -> [UInt8] {
        let rowBytes = width * bpp
        var out: [UInt8] = []
        for y in 0..<height {
            func at(_ x: Int, _ row: Int) -> Int { x < 0 || row < 0 ? 0 : Int(pixels[row * rowBytes + x]) }
            var candidates: [[UInt8]] = []
            for type in 0..<5 {
                candidates.append((0..<rowBytes).map { x in
                    let a = at(x - bpp, y), b = at(x, y - 1), c = at(x - bpp, y - 1)
                    let p = a + b - c
                    let paeth = abs(p - a) <= abs(p - b) && abs(p - a) <= abs(p - c) ? a : abs(p - b) <= abs(p - c) ? b : c
                    let predicted = [0, a, b, (a + b) / 2, paeth][type]
                    return UInt8(truncatingIfNeeded: at(x, y) - predicted)
                })
            }
            let costs = candidates.map { $0.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) } }
            let type = costs.firstIndex(of: costs.min()!)!
            out += [UInt8(type)] + candidates[type]
        }
        return out
    }

    @Test("the compression level overrides the effort's, clamped to 0–12, and is folded into the options key")
    func levelOverridesEffort() {
        #expect(PNGEncoder(effort: .max).compressionLevel == 12)
        #expect(PNGEncoder(effort: .fast, compressionLevel: 9).compressionLevel == 9)
        #expect(PNGEncoder(compressionLevel: 40).compressionLevel == 12)
        #expect(PNGEncoder(effort: .fast) != PNGEncoder(effort: .max))
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
            let crc = CRC32.checksum(bytes[offset + 4..<offset + 8 + length])
            #expect(crc == stored, "\(type)")
            types.append(type)
            offset += 12 + length
        }
        #expect(offset == bytes.count)
        #expect(types == ["IHDR", "iCCP", "IDAT", "IEND"])
    }

    /// The file as the encoder wrote it before it streamed: the whole straight copy, the whole
    /// packed copy, filtered, compressed on its own, then framed in 1 MiB IDAT pieces.
    private static func wholeImageFile(_ bitmap: Bitmap, level: Int) throws -> [UInt8] {
        let rgba = PixelPacking.straightRGBA(bitmap)
        let layout = PixelPacking.smallestLayout(rgba)
        let packed = PixelPacking.pack(rgba, as: layout)
        let filtered = packed.withUnsafeBufferPointer {
            PNGRowFilter.filter($0, width: bitmap.width, height: bitmap.height, bytesPerPixel: layout.rawValue)
        }
        let data = try ZlibStream.compress(filtered, level: level)
        var file = PNGChunkWriter(reservingCapacity: data.count + 100)
        func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        file.append("IHDR", bigEndian(bitmap.width) + bigEndian(bitmap.height) + [8, UInt8(layout.pngColorType), 0, 0, 0])
        for start in stride(from: 0, to: data.count, by: 1 << 20) {
            file.append("IDAT", Array(data[start..<min(data.count, start + (1 << 20))]))
        }
        file.append("IEND", [])
        return file.bytes
    }

    @Test("rows packed and filtered one at a time give the whole-image method's bytes, premultiplied or not, over 1 MiB or not")
    func streamedRowsGiveTheWholeImageBytes() throws {
        let noise = try Generated.noise(width: 700, height: 600, seed: 11)
        // Translucent and premultiplied: every row is unpremultiplied on its own.
        var premultiplied = noise
        for index in stride(from: 0, to: premultiplied.pixels.count, by: 4) {
            let alpha = Int(premultiplied.pixels[index + 3])
            for channel in 0..<3 {
                premultiplied.pixels[index + channel] = UInt8((Int(premultiplied.pixels[index + channel]) * alpha + 127) / 255)
            }
        }
        premultiplied.alpha = .premultiplied
        var opaque = noise
        for index in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[index] = 255 }
        opaque.alpha = .premultiplied  // all opaque: shared, never copied
        let images = [noise, premultiplied, opaque, try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap,
                      try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap]
        for (index, image) in images.enumerated() {
            for level in [1, 6] {
                let streamed = try PNGEncoder(compressionLevel: level).encode(image, iccProfile: nil)
                #expect(streamed == (try Self.wholeImageFile(image, level: level)), "image \(index) at level \(level)")
            }
        }
        // Noise does not compress: its image data spans several 1 MiB IDAT chunks.
        let bytes = try PNGEncoder().encode(noise, iccProfile: nil)
        #expect(bytes.count > 1_600_000)
        #expect(try decode(bytes).pixels == noise.pixels)
    }
}

