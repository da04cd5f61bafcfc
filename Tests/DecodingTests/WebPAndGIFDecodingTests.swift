import CodecFixtures
import Decoding
import Testing
import TesseraCore

@Suite("WebP and GIF decoding")
struct WebPAndGIFDecodingTests {
    @Test("WebP gallery files match dwebp's decodes: lossless exactly, lossy within tolerance")
    func galleryMatchesReference() throws {
        for name in Fixtures.files(in: "still/image-webp/gallery2", withExtension: "webp") {
            let webp = try Fixtures.decode("still/image-webp/gallery2/\(name)")
            let stem = name.dropLast(".webp".count)
            let reference = try Fixtures.decode("still/image-webp/reference/gallery2/\(stem).png")
            #expect(webp.bitmap.width == reference.bitmap.width && webp.bitmap.height == reference.bitmap.height)
            if name.contains("_ll") {
                #expect(webp.bitmap.pixels == reference.bitmap.pixels, "\(name)")
            } else {
                // dwebp's default "fancy" upsampling is what libwebp's RGBA decode does too.
                #expect(meanAbsoluteDifference(webp.bitmap, reference.bitmap) < 1, "\(name)")
            }
        }
    }

    @Test("WebP regression files match their reference decodes")
    func regressionFiles() throws {
        for name in Fixtures.files(in: "still/image-webp/regression", withExtension: "webp") {
            let webp = try Fixtures.decode("still/image-webp/regression/\(name)")
            let reference = try Fixtures.decode("still/image-webp/reference/regression/\(name.dropLast(5)).png")
            #expect(webp.bitmap.width == reference.bitmap.width, "\(name)")
            #expect(meanAbsoluteDifference(webp.bitmap, reference.bitmap) < 1, "\(name)")
        }
    }

    @Test("WebP ICC profiles are kept and recognised")
    func webpICC() throws {
        let tiny = try Fixtures.decode("still/image-webp/regression/tiny.webp")
        #expect(tiny.info.iccProfile != nil)
        #expect(tiny.info.colorSpace == .sRGB)
    }

    @Test("an animated WebP reports its frames and canvas and decodes its first frame")
    func animatedWebP() throws {
        let source = try Fixtures.source("animated/image-webp/random_lossy.webp")
        let info = try WebPDecoder().probe(source)
        #expect(info.frameCount == 4 && info.width == 99 && info.height == 87)
        #expect(info.loopCount == 0)
        let first = try ImageDecoders.decode(source).bitmap
        let reference = try Fixtures.decode("animated/image-webp/reference/random_lossy-1.png").bitmap
        #expect(meanAbsoluteDifference(first, reference) < 1)
    }

    @Test("GIF stills and animations: size, frame count, loop field")
    func gifProbe() throws {
        let hopper = try Fixtures.decode("animated/pillow/hopper.gif")
        #expect(hopper.bitmap.width == 128 && hopper.info.frameCount == 1)
        let chi = try GIFDecoder().probe(try Fixtures.source("animated/pillow/chi.gif"))
        #expect(chi.frameCount == 31 && chi.loopCount == 0 && chi.width == 320)
        let once = try GIFDecoder().probe(try Fixtures.source("animated/sdwebimage/TestLoopCount.gif"))
        #expect(once.loopCount == nil)
    }

    @Test("malformed GIFs give errors, not crashes or huge allocations", arguments: [
        "animated/pillow/decompression_bomb.gif", "animated/pillow/zero_width.gif",
    ])
    func malformedGIFs(path: String) throws {
        let error = try #require(failure { try Fixtures.decode(path) })
        #expect(error.file?.hasSuffix(path.split(separator: "/").last.map(String.init) ?? "") == true)
        #expect(error.reason.hasPrefix("GIF: "), "\(error)")
    }
}

@Suite("EXIF orientation")
struct OrientationTests {
    @Test("every JPEG and WebP orientation decodes upright and matches the orientation-1 image",
          arguments: 2...8)
    func orientationsUpright(orientation: Int) throws {
        for ext in ["jpg", "webp"] {
            let folder = ext == "jpg" ? "jpeg" : "webp"
            let upright = try Fixtures.decode("still/pillow/\(folder)/hopper.\(ext)").bitmap
            let image = try Fixtures.decode("still/pillow/\(folder)/hopper_orientation_\(orientation).\(ext)")
            #expect(image.info.orientation.rawValue == orientation)
            #expect(image.orientationApplied)
            #expect(meanAbsoluteDifference(image.bitmap, upright) < 8, "\(ext) orientation \(orientation)")
        }
    }

    @Test("a 2×1 JPEG with orientation 8 becomes 1×2")
    func rectangle() throws {
        let image = try Fixtures.decode("still/pillow/jpeg/orientation_rectangle.jpg")
        #expect(image.info.orientation == .left)
        #expect(image.bitmap.width == 1 && image.bitmap.height == 2)
    }

    @Test("PNG eXIf orientation is read")
    func pngExif() throws {
        let image = try Fixtures.decode("png/bugfixes/F-exif-chunk-early.png")
        #expect(image.info.orientation == .right)
    }

    @Test("each orientation maps pixels as EXIF defines")
    func mapping() throws {
        // 3×2 image, pixel value = index.
        let image = try Bitmap(width: 3, height: 2, format: .gray8, alpha: .opaque, pixels: [0, 1, 2, 3, 4, 5])
        let expected: [Orientation: (Int, Int, [UInt8])] = [
            .up: (3, 2, [0, 1, 2, 3, 4, 5]),
            .upMirrored: (3, 2, [2, 1, 0, 5, 4, 3]),
            .down: (3, 2, [5, 4, 3, 2, 1, 0]),
            .downMirrored: (3, 2, [3, 4, 5, 0, 1, 2]),
            .leftMirrored: (2, 3, [0, 3, 1, 4, 2, 5]),
            .right: (2, 3, [3, 0, 4, 1, 5, 2]),
            .rightMirrored: (2, 3, [5, 2, 4, 1, 3, 0]),
            .left: (2, 3, [2, 5, 1, 4, 0, 3]),
        ]
        for (orientation, (width, height, pixels)) in expected {
            let turned = try image.applying(orientation)
            #expect(turned.width == width && turned.height == height && turned.pixels == pixels, "\(orientation)")
        }
    }
}
