import CodecFixtures
import Decoding
import Encoding
import Testing
import TesseraCore

@Suite("Encoding")
struct EncodingTests {
    private func roundTrip(_ bitmap: Bitmap, _ encoder: any ImageEncoder) throws -> (bytes: [UInt8], image: DecodedImage) {
        let bytes = try encoder.encode(bitmap, iccProfile: nil)
        return (bytes, try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "encoded")))
    }

    @Test("PNG round-trips exactly and picks the smallest lossless colour type")
    func pngRoundTrip() throws {
        let rgba = try Generated.gradient(width: 37, height: 23)
        let (rgbaBytes, rgbaBack) = try roundTrip(rgba, PNGEncoder())
        #expect(rgbaBack.bitmap.pixels == rgba.pixels)
        #expect(rgbaBytes[25] == 6)  // IHDR colour type: RGBA

        let opaque = try Generated.gradient(width: 37, height: 23, opaque: true)
        let (rgbBytes, rgbBack) = try roundTrip(opaque, PNGEncoder())
        #expect(rgbBack.bitmap.pixels == opaque.pixels)
        #expect(rgbBytes[25] == 2)  // RGB

        let gray = try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap
        let (grayBytes, grayBack) = try roundTrip(gray, PNGEncoder(compressionLevel: 9))
        #expect(grayBack.bitmap.pixels == gray.pixels)
        #expect(grayBytes[25] == 0)  // gray
    }

    @Test("premultiplied bitmaps are written with straight alpha")
    func premultipliedIsUnpremultiplied() throws {
        let premultiplied = try Bitmap(width: 2, height: 1, format: .rgba8, alpha: .premultiplied,
                                       pixels: [100, 50, 0, 128, 0, 0, 0, 0])
        let back = try roundTrip(premultiplied, PNGEncoder()).image.bitmap
        #expect(back.pixels == [199, 100, 0, 128, 0, 0, 0, 0])
    }

    @Test("JPEG at quality 95 keeps PSNR of at least 40 dB")
    func jpegQuality() throws {
        let photo = try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap
        for chroma in JPEGEncoder.ChromaSubsampling.allCases {
            let back = try roundTrip(photo, JPEGEncoder(quality: 95, chroma: chroma)).image.bitmap
            #expect(psnr(photo, back) >= 40, "\(chroma)")
        }
        let progressive = try roundTrip(photo, JPEGEncoder(quality: 95, progressive: true)).image
        #expect(progressive.info.needsWholeImage)
    }

    @Test("the same pixels and options always give the same bytes")
    func deterministic() throws {
        let image = try Generated.noise(width: 64, height: 48, seed: 7)
        for encoder in [PNGEncoder() as any ImageEncoder, JPEGEncoder()] {
            #expect(try encoder.encode(image, iccProfile: nil) == encoder.encode(image, iccProfile: nil))
        }
    }

    @Test("an ICC profile is carried through an encode")
    func iccCarried() throws {
        let source = try Fixtures.decode("still/pillow/jpeg/pil_sample_rgb.jpg")
        for encoder in [PNGEncoder() as any ImageEncoder, JPEGEncoder()] {
            let bytes = try encoder.encode(source.bitmap, iccProfile: source.info.iccProfile)
            let back = try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "x"))
            #expect(back.info.iccProfile == source.info.iccProfile)
            #expect(back.info.colorSpace == .sRGB)
        }
    }
}

@Suite("WebP encoding and colour profiles")
struct WebPEncodingTests {
    @Test("lossless WebP round-trips exactly, alpha and transparent colours included")
    func losslessRoundTrip() throws {
        let image = try Generated.noise(width: 41, height: 29, seed: 5)
        let bytes = try WebPEncoder(lossless: true).encode(image, iccProfile: nil)
        let back = try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "n.webp"))
        #expect(back.info.colorModel == "lossless+alpha")
        #expect(back.info.webpBitstream == .lossless)
        #expect(back.bitmap.pixels == image.pixels)
    }

    @Test("lossy WebP keeps a photo recognisable and is deterministic")
    func lossy() throws {
        let photo = try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap
        let encoder = WebPEncoder(quality: 90)
        let bytes = try encoder.encode(photo, iccProfile: nil)
        #expect(try encoder.encode(photo, iccProfile: nil) == bytes)
        let decoded = try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "f.webp"))
        #expect(decoded.info.webpBitstream == .lossy)
        #expect(psnr(photo, decoded.bitmap) > 32)
    }

    @Test("an ICC profile rides along in WebP, and Display P3 is recognised from v2 and v4 profiles")
    func profiles() throws {
        let image = try Generated.gradient(width: 8, height: 8, opaque: true)
        for profile in [ICCFixture.v2(description: "Display P3"), ICCFixture.v4(description: "Display P3")] {
            for encoder in [WebPEncoder() as any ImageEncoder, JPEGEncoder()] {
                let bytes = try encoder.encode(image, iccProfile: profile)
                let back = try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "p3"))
                #expect(back.info.iccProfile == profile)
                #expect(back.info.colorSpace == .displayP3, "\(encoder.format)")
                #expect(back.info.iccName == "Display P3")
            }
        }
        let other = ICCFixture.v2(description: "Adobe RGB (1998)")
        let bytes = try JPEGEncoder().encode(image, iccProfile: other)
        #expect(try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "a")).info.colorSpace
                == .icc(description: "Adobe RGB (1998)"))
    }
}

/// Minimal ICC profiles carrying just a description tag: enough for recognition tests.
enum ICCFixture {
    static func v2(description: String) -> [UInt8] {
        var tag = Array("desc".utf8) + [0, 0, 0, 0] + bigEndian(UInt32(description.utf8.count + 1))
        tag += Array(description.utf8) + [0]
        return profile(tag: tag)
    }

    static func v4(description: String) -> [UInt8] {
        let text = description.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
        var tag = Array("mluc".utf8) + [0, 0, 0, 0] + bigEndian(1) + bigEndian(12)
        tag += Array("enUS".utf8) + bigEndian(UInt32(text.count)) + bigEndian(28) + text
        return profile(tag: tag)
    }

    private static func profile(tag: [UInt8]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        var table = bigEndian(1) + Array("desc".utf8) + bigEndian(144) + bigEndian(UInt32(tag.count))
        table += [UInt8](repeating: 0, count: 144 - 128 - table.count)
        var bytes = header + table + tag
        bytes.replaceSubrange(0..<4, with: bigEndian(UInt32(bytes.count)))
        return bytes
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
