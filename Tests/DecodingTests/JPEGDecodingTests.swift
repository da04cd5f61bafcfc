import CodecFixtures
import Decoding
import Testing
import TesseraCore

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    @Test("baseline, progressive and gray JPEGs decode to their stated sizes")
    func decodesKinds() throws {
        let cases: [(String, Int, Int, String, Bool)] = [
            ("still/pillow/jpeg/hopper.jpg", 128, 128, "ycbcr", false),
            ("still/pillow/jpeg/app13-multiple.jpg", 256, 160, "ycbcr", true),
            ("still/pillow/jpeg/hopper_gray.jpg", 128, 128, "gray", false),
            ("still/sdwebimage/MonochromeTestImage.jpg", 165, 121, "gray", true),
            ("still/pillow/jpeg/hopper_16bit_qtables.jpg", 128, 128, "ycbcr", false),
        ]
        for (path, width, height, model, progressive) in cases {
            let image = try Fixtures.decode(path)
            #expect(image.bitmap.width == width && image.bitmap.height == height, "\(path)")
            #expect(image.info.colorModel == model, "\(path)")
            #expect(image.info.needsWholeImage == progressive, "\(path)")
            #expect(image.bitmap.alpha == .opaque)
        }
    }

    @Test("a gray JPEG decodes to equal R, G and B")
    func grayIsNeutral() throws {
        let image = try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap
        for index in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(image.pixels[index] == image.pixels[index + 1] && image.pixels[index] == image.pixels[index + 2])
        }
    }

    @Test("Adobe CMYK decodes close to its RGB twin")
    func cmykMatchesRGB() throws {
        let cmyk = try Fixtures.decode("still/pillow/jpeg/pil_sample_cmyk.jpg")
        let rgb = try Fixtures.decode("still/pillow/jpeg/pil_sample_rgb.jpg")
        #expect(cmyk.info.colorModel == "ycck")  // Adobe APP14 transform 2: YCCK, inverted
        #expect(meanAbsoluteDifference(cmyk.bitmap, rgb.bitmap) < 6)
        #expect(psnr(cmyk.bitmap, rgb.bitmap) > 25)
    }

    @Test("ICC profiles are kept and recognised")
    func iccProfiles() throws {
        let srgb = try Fixtures.decode("still/pillow/jpeg/pil_sample_rgb.jpg")
        #expect(srgb.info.iccProfile != nil)
        #expect(srgb.info.colorSpace == .sRGB)
        let custom = try Fixtures.decode("still/sdwebimage/TestICCProfile.jpg")
        #expect(custom.info.colorSpace == .icc(description: "Test profile to check both workflows"))
        let none = try Fixtures.decode("still/pillow/jpeg/hopper.jpg")
        #expect(none.info.colorSpace == .unspecified)
    }

    @Test("a truncated JPEG is an error, never a gray-padded image")
    func truncatedIsError() throws {
        let error = try #require(failure { try Fixtures.decode("still/pillow/broken/truncated_jpeg.jpg") })
        #expect(error.reason == "JPEG: premature end of JPEG data (the file is truncated)")
        #expect(error.file?.hasSuffix("truncated_jpeg.jpg") == true)
    }

    @Test("recoverable corruption decodes with the codec's warning")
    func extraneousBytesWarn() throws {
        let image = try Fixtures.decode("still/pillow/broken/junk_jpeg_header.jpg")
        #expect(image.bitmap.width == 1024)
        #expect(image.warnings.first == "Corrupt JPEG data: 5 extraneous bytes before marker 0xdb")
        let clean = try Fixtures.decode("still/pillow/broken/invalid-exif.jpg")
        #expect(clean.warnings.isEmpty)
    }

    @Test("DCT shrink-on-load streams rows at 1/2, 1/4 and 1/8 size")
    func dctScaling() throws {
        let source = try Fixtures.source("still/pillow/jpeg/flower.jpg")
        for (denominator, width, height) in [(1, 480, 360), (2, 240, 180), (4, 120, 90), (8, 60, 45)] {
            let reader = try JPEGDecoder().openRows(source, scaleDenominator: denominator, options: DecodeOptions())
            #expect(reader.width == width && reader.height == height)
            var buffer = [UInt8](repeating: 0, count: reader.width * 4 * reader.height)
            var done = 0
            while done < reader.height {
                done += try buffer.withUnsafeMutableBytes { raw in
                    try reader.readRows(into: UnsafeMutableRawBufferPointer(rebasing: raw[(done * reader.width * 4)...]),
                                        stride: reader.width * 4, count: 16)
                }
            }
            try reader.finish()
            #expect(done == height)
        }
    }
}
