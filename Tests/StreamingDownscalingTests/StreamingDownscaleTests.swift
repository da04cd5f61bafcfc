import Foundation
import Decoding
import Downscaling
import Encoding
@testable import StreamingDownscaling
import TestSupport
import Testing
import TesseraCore

@Suite("Streaming downscale")
struct StreamingDownscaleTests {
    private func path(_ relative: String) -> String { "\(Workspace.corpus)/\(relative)" }

    private func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squared = 0.0
        for index in a.pixels.indices where index % 4 != 3 {
            let difference = Double(a.pixels[index]) - Double(b.pixels[index])
            squared += difference * difference
        }
        let mse = squared / Double(a.pixels.count / 4 * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test("JPEG shrink-on-load plus filtering matches filtering the full decode closely", arguments: [
        ("still/pillow/jpeg/flower.jpg", 100, 75), ("still/pillow/jpeg/flower.jpg", 230, 172),
        ("still/pillow/jpeg/hopper.jpg", 30, 30), ("png/pngsuite/basn6a08.png", 11, 11),
        ("png/pngsuite/basi6a08.png", 16, 16), ("still/pillow/webp/flower.webp", 100, 75),
    ])
    func matchesFullDecode(file: String, width: Int, height: Int) throws {
        let streamed = try StreamingDownscale.run(fileAt: path(file)) { _ in [(width, height)] }.images[0]!.bitmap
        let full = try ImageDecoders.decode(try SourceBytes(contentsOfFile: path(file))).bitmap
        let reference = try Resampler().resize(full, width: width, height: height)
        #expect(streamed.width == width && streamed.height == height)
        #expect(psnr(streamed, reference) > 33, "\(file)")
    }

    @Test("orientation is applied to the small result: stored 128×128 turned, stored 2×1 becomes 1×2")
    func orientationAfter() throws {
        let turned = try StreamingDownscale.run(fileAt: path("still/pillow/jpeg/hopper_orientation_6.jpg")) { info in
            #expect(info.orientation == .right)
            return [(40, 40)]
        }.images[0]!
        #expect(turned.orientationApplied)
        let upright = try ImageDecoders.decode(try SourceBytes(contentsOfFile: path("still/pillow/jpeg/hopper.jpg"))).bitmap
        #expect(psnr(turned.bitmap, try Resampler().resize(upright, width: 40, height: 40)) > 25)
        let rectangle = try StreamingDownscale.run(fileAt: path("still/pillow/jpeg/orientation_rectangle.jpg")) { info in
            [(info.uprightWidth, info.uprightHeight)]
        }.images[0]!.bitmap
        #expect((rectangle.width, rectangle.height) == (1, 2))
    }

    @Test("sizes streamed into encoders give the files those encoders make of the bitmaps, in one pass",
          arguments: ["still/pillow/jpeg/flower.jpg", "still/pillow/jpeg/hopper_gray.jpg", "png/pngsuite/basn6a08.png",
                      "png/pngsuite/basn0g08.png", "still/pillow/webp/flower.webp"])
    func streamedSizesGiveTheBitmapsFiles(file: String) throws {
        let sizes: (ImageInfo) -> [(width: Int, height: Int)] = { info in
            [(info.width * 2 / 3, info.height * 2 / 3), (info.width / 3, info.height / 3)]
        }
        let whole = try StreamingDownscale.run(fileAt: path(file), sizes: sizes)
        for encoder in [PNGEncoder() as any ImageEncoder, JPEGEncoder()] {
            var rowEncoders: [any ImageRowEncoder] = []
            let streamed = try StreamingDownscale.run(fileAt: path(file), sizes: sizes) { info, alpha, sizes throws(TesseraError) in
                for size in sizes {
                    guard let rows = try encoder.rowEncoder(for: RowEncoding(
                        width: size.width, height: size.height, alpha: alpha, mayHaveAlpha: info.hasAlpha,
                        gray: info.isGray, iccProfile: info.iccProfile)) else {
                        throw TesseraError(.internalFailure, reason: "\(encoder.format) takes no rows")
                    }
                    rowEncoders.append(rows)
                }
                return rowEncoders.map { $0 as any ImageRowSink }
            }
            #expect(streamed.images.allSatisfy { $0 == nil })
            #expect(rowEncoders.count == 2)
            for (rows, image) in zip(rowEncoders, whole.images) {
                var notes: [String] = []
                let expected = try encoder.encode(try #require(image).bitmap, iccProfile: whole.info.iccProfile)
                #expect(try rows.finish(notes: &notes) == expected, "\(file) as \(encoder.format)")
            }
        }
    }

    @Test("encoded sizes are the encoders' files of the bitmaps, also when rows do not fit the row encoder and a second pass makes them whole",
          arguments: ["png/pngsuite/basn4a08.png", "still/pillow/jpeg/flower.jpg", "still/pillow/jpeg/hopper_orientation_6.jpg"])
    func encodedSizesAreTheBitmapsFiles(file: String) throws {
        let sizes: (ImageInfo) -> [(width: Int, height: Int)] = { info in
            [(info.uprightWidth / 2, info.uprightHeight / 2), (info.uprightWidth / 3, info.uprightHeight / 3),
             (info.uprightWidth / 4, info.uprightHeight / 4)]
        }
        let whole = try StreamingDownscale.run(fileAt: path(file), sizes: sizes)
        // basn4a08 is gray with alpha: the JPEG row encoder assumes gray rows, meets translucent
        // ones, and gives up; the second pass's bitmap is encoded in colour, as a whole encode is.
        let encoders: [(any ImageEncoder)?] = [JPEGEncoder(), PNGEncoder(), nil]
        let encoded = try EncodedDownscale.run(fileAt: path(file), sizes: sizes, encoders: encoders)
        #expect(encoded.outputs.count == 3)
        for (index, output) in encoded.outputs.enumerated() {
            if index == 2 {
                guard case .image(let image) = output else {
                    Issue.record("\(file): the size without an encoder came back as a file")
                    continue
                }
                #expect(image.bitmap.pixels == whole.images[2]?.bitmap.pixels)
                continue
            }
            guard case .file(let made) = output else {
                Issue.record("\(file): size \(index) came back as an image")
                continue
            }
            let bitmap = try #require(whole.images[index]).bitmap
            #expect(made.bytes == (try encoders[index]!.encode(bitmap, iccProfile: whole.info.iccProfile)), "\(file) size \(index)")
            #expect((made.width, made.height) == (bitmap.width, bitmap.height))
        }
    }

    @Test("a file that must be turned upright is never streamed: its sizes come back as bitmaps")
    func turnedFilesAreNotStreamed() throws {
        var asked = false
        let result = try StreamingDownscale.run(fileAt: path("still/pillow/jpeg/hopper_orientation_6.jpg"),
                                                sizes: { _ in [(40, 40)] }) { _, _, sizes in
            asked = true
            return sizes.map { _ in nil }
        }
        #expect(!asked)
        #expect(result.images[0]?.bitmap.width == 40)
    }

    @Test("a truncated file fails with the file and the reason, from the stream")
    func truncated() throws {
        do {
            _ = try StreamingDownscale.run(fileAt: path("still/pillow/broken/truncated_image.png")) { _ in [(10, 10)] }
            Issue.record("a truncated PNG downscaled")
        } catch {
            #expect(error.file?.hasSuffix("truncated_image.png") == true)
            #expect(error.reason.hasPrefix("PNG: "))
        }
    }

    @Test("images over the pixel limit are refused before decoding")
    func pixelLimit() throws {
        do {
            _ = try StreamingDownscale.run(fileAt: path("still/pillow/jpeg/flower.jpg"),
                                           options: DecodeOptions(maxPixels: 1000)) { _ in [(10, 10)] }
            Issue.record("decoded past the limit")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
    }

    @Test("one memory model: a progressive JPEG's whole-image DCT coefficients are counted, and a budget they exhaust leaves a one-row band")
    func memoryModelCountsCoefficients() throws {
        var pixels: [UInt8] = []
        for y in 0..<60 { for x in 0..<100 { pixels += [UInt8(x * 2), UInt8(y * 4), UInt8((x + y) % 256), 255] } }
        let photo = try Bitmap(width: 100, height: 60, format: .rgba8, alpha: .straight, pixels: pixels)
        func info(progressive: Bool) throws -> (ImageInfo, Int) {
            let bytes = try JPEGEncoder(quality: 90, progressive: progressive, chroma: .s420).encode(photo, iccProfile: nil)
            let source = SourceBytes(bytes: bytes, path: "memory.jpg")
            return (try ImageDecoders.decoder(for: source).probe(source), bytes.count)
        }
        let (progressive, progressiveSize) = try info(progressive: true)
        let (baseline, baselineSize) = try info(progressive: false)
        // 4:2:0: luma 13×8 blocks (rows rounded to its 2-block iMCU), each chroma plane 7×4; 64 two-byte coefficients a block.
        let coefficients = (13 * 8 + 2 * 7 * 4) * 128
        #expect(progressive.decoderBufferBytes == coefficients)
        #expect(baseline.decoderBufferBytes == 0)
        let budget = 1 << 20
        let streamedProgressive = DownscaleMemory.planned(info: progressive, fileSize: progressiveSize, outputs: [(50, 30)],
                                                          filter: .lanczos3, memoryBudget: budget)
        let streamedBaseline = DownscaleMemory.planned(info: baseline, fileSize: baselineSize, outputs: [(50, 30)],
                                                       filter: .lanczos3, memoryBudget: budget)
        #expect(streamedProgressive.decoderBytes - streamedBaseline.decoderBytes == coefficients)
        #expect(streamedProgressive.sourceBytes == 0 && streamedProgressive.peakBytes <= budget)
        #expect(streamedBaseline.bandRows > streamedProgressive.bandRows || streamedBaseline.bandRows == 256)
        let tight = DownscaleMemory.planned(info: progressive, fileSize: progressiveSize, outputs: [(50, 30)],
                                            filter: .lanczos3, memoryBudget: coefficients)
        #expect(tight.bandRows == 1)
    }

    @Test("one memory model: an animated WebP master is held whole, file and decoded image, and the estimate says so")
    func memoryModelHoldsUnstreamedFormats() throws {
        let file = path("animated/image-webp/random_lossy.webp")
        let source = try SourceBytes(contentsOfFile: file)
        let info = try ImageDecoders.decoder(for: source).probe(source)
        let model = DownscaleMemory.planned(info: info, fileSize: source.count, outputs: [(40, 35)], filter: .lanczos3,
                                            memoryBudget: 256 << 20)
        #expect(model.sourceBytes == source.count)
        #expect(model.decoderBytes == info.width * info.height * 4)
        #expect(model.peakBytes == model.sourceBytes + model.decoderBytes + model.fixedBytes + model.bandBytes)
    }

    @Test("a still WebP is streamed: no file held, rows at libwebp's shrink-on-load size (lossless: its ARGB buffer)")
    func memoryModelStreamsStillWebP() throws {
        let lossy = try WebPDecoder().probe(fileAt: path("still/pillow/webp/flower.webp"))
        let model = DownscaleMemory.planned(info: lossy, fileSize: 1 << 20, outputs: [(50, 37)], filter: .lanczos3,
                                            memoryBudget: 256 << 20)
        // flower.webp is 460×345: fitting 50×37 leaves a shrink-on-load factor of 4 (115 px rows).
        #expect(model.sourceBytes == 0)
        #expect(model.decoderBytes == 2 * (lossy.width / 4) * 8)
        let lossless = try WebPDecoder().probe(fileAt: path("still/image-webp/gallery2/1_webp_ll.webp"))
        let losslessModel = DownscaleMemory.planned(info: lossless, fileSize: 1 << 20, outputs: [(20, 20)],
                                                    filter: .lanczos3, memoryBudget: 256 << 20)
        #expect(losslessModel.sourceBytes == 0)
        #expect(losslessModel.decoderBytes >= lossless.width * lossless.height * 4)
    }

    @Test("a streamed WebP downscale gives the same bytes as downscaling libwebp's whole scaled decode",
          arguments: [("still/pillow/webp/flower.webp", 100, 75), ("still/pillow/webp/transparent.webp", 30, 30),
                      ("still/image-webp/gallery2/1_webp_a.webp", 90, 60), ("still/image-webp/gallery2/2_webp_ll.webp", 77, 77)])
    func webpStreamMatchesWholeDecode(file: String, width: Int, height: Int) throws {
        let streamed = try StreamingDownscale.run(fileAt: path(file)) { _ in [(width, height)] }.images[0]!.bitmap
        let source = try SourceBytes(contentsOfFile: path(file))
        let info = try WebPDecoder().probe(source)
        let factor = StreamingDownscale.webpShrink(width: info.width, height: info.height, target: (width, height)) ?? 1
        let whole = try WebPDecoder().decode(source, scaledTo: max(1, info.width / factor), height: max(1, info.height / factor),
                                             options: DecodeOptions(appliesOrientation: false)).bitmap
        let rows = try BitmapRowSource(whole)
        let geometry = StreamingDownscale.geometry(rows: (whole.width, whole.height),
                                                   logical: (Double(whole.width), Double(whole.height)),
                                                   output: (width, height), filter: .lanczos3)
        let reference = try BandDownscaler(filter: .lanczos3, bandRows: 16).downscale(rows, geometries: [geometry])[0]
        #expect(streamed.pixels == reference.pixels, "\(file)")
    }
}
