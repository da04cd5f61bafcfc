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
