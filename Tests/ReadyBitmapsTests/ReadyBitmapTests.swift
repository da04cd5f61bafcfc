import CodecFixtures
import Decoding
import ReadyBitmaps
import Testing
import TesseraCore

@Suite("Ready-to-draw bitmaps")
struct ReadyBitmapTests {
    @Test("BGRA8 output is premultiplied with exact rounding, rows 64-byte aligned, pixels page-aligned")
    func layoutAndPremultiplication() throws {
        let image = try Bitmap(width: 3, height: 2, format: .rgba8, alpha: .straight,
                               pixels: [200, 100, 50, 128, 255, 255, 255, 255, 9, 9, 9, 0,
                                        0, 0, 255, 255, 10, 20, 30, 1, 255, 0, 0, 254])
        let bytes = try ReadyBitmapWriter(layout: .bgra8).encode(image)
        let header = try ReadyBitmapHeader.decode(bytes, fileSize: bytes.count, path: "x.bitmap")
        #expect(header.rowStride == 64 && header.dataOffset == 4096 && bytes.count == 4096 + 128)
        #expect(!header.opaque && header.layout == .bgra8)
        #expect(Array(bytes[4096..<4108]) == [25, 50, 100, 128, 255, 255, 255, 255, 0, 0, 0, 0])
        #expect(Array(bytes[4160..<4172]) == [255, 0, 0, 255, 0, 0, 0, 1, 0, 0, 254, 254])
        #expect(bytes[4108..<4160].allSatisfy { $0 == 0 })  // row padding
    }

    @Test("RGBA8 layout, opaque flag and header fields round-trip through the reader")
    func roundTrip() throws {
        let photo = try Fixtures.decode("still/pillow/jpeg/hopper_orientation_6.jpg")
        let bytes = try ReadyBitmapWriter(layout: .rgba8, dataOffset: 64)
            .encode(photo.bitmap, appliedOrientation: photo.info.orientation)
        let (header, bitmap) = try ReadyBitmapReader.read(bytes, path: "h.bitmap")
        #expect(header.opaque && header.layout == .rgba8 && header.dataOffset == 64)
        #expect(header.appliedOrientation == .right)
        #expect(header.rowStride == 512)
        #expect(bitmap.pixels == photo.bitmap.pixels)
    }

    @Test("a corrupt or truncated file is refused with the reason")
    func corruption() throws {
        var bytes = try ReadyBitmapWriter().encode(try Bitmap(width: 4, height: 4, format: .rgba8, alpha: .opaque))
        #expect(throws: TesseraError.self) { try ReadyBitmapReader.read(Array(bytes.prefix(4000)), path: "t") }
        bytes[13] ^= 0x40
        let error = try #require(failure { try ReadyBitmapReader.read(bytes, path: "c.bitmap") })
        #expect(error.description == "c.bitmap: bitmap: ready bitmap: header checksum mismatch (the header is corrupt)")
    }

    @Test("the same pixels always give the same bytes")
    func deterministic() throws {
        let image = try Generated.noise(width: 33, height: 17, seed: 3)
        #expect(try ReadyBitmapWriter().encode(image) == ReadyBitmapWriter().encode(image))
    }
}

@Suite("Force-decode policy")
struct ForceDecodePolicyTests {
    @Test("globs: * within a segment, ** across segments, ? one character")
    func globs() {
        #expect(Glob("icons/*").matches("icons/star"))
        #expect(!Glob("icons/*").matches("icons/big/star"))
        #expect(Glob("icons/**").matches("icons/big/star"))
        #expect(Glob("**/star").matches("star"))
        #expect(Glob("**/star").matches("a/b/star"))
        #expect(Glob("st?r").matches("star") && !Glob("st?r").matches("st/r"))
        #expect(!Glob("icons/*").matches("photos/star"))
    }

    @Test("animated images are skipped unless asked; still images follow include or all")
    func shouldDecode() {
        let named = ForceDecodePolicy(include: ["icons/**"])
        #expect(named.shouldDecode(asset: AssetID("icons/star"), animated: false))
        #expect(!named.shouldDecode(asset: AssetID("photos/cat"), animated: false))
        #expect(!named.shouldDecode(asset: AssetID("icons/spinner"), animated: true))
        let all = ForceDecodePolicy(all: true, includeAnimated: false)
        #expect(all.shouldDecode(asset: AssetID("x"), animated: false) && !all.shouldDecode(asset: AssetID("x"), animated: true))
        #expect(ForceDecodePolicy(all: true, includeAnimated: true).shouldDecode(asset: AssetID("x"), animated: true))
    }

    @Test("an image over the byte budget shrinks by the square root of the ratio, within budget")
    func budget() {
        let policy = ForceDecodePolicy(maxDecodedBytes: 12_000_000)
        #expect(policy.targetSize(width: 4000, height: 3000) == (2000, 1500))
        #expect(policy.targetSize(width: 1000, height: 1000) == (1000, 1000))
        let tight = ForceDecodePolicy(maxDecodedBytes: 4).targetSize(width: 6_000_000, height: 2)
        #expect(tight == (1, 1))
        let odd = ForceDecodePolicy(maxDecodedBytes: 1_000_003).targetSize(width: 3001, height: 997)
        #expect(odd.width * odd.height * 4 <= 1_000_003 && odd.width > 500)
    }
}
