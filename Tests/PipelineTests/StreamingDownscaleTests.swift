import Foundation
import Decoding
import Downscaling
import Pipeline
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
        let streamed = try StreamingDownscale.run(fileAt: path(file)) { _ in [(width, height)] }.images[0].bitmap
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
        }.images[0]
        #expect(turned.orientationApplied)
        let upright = try ImageDecoders.decode(try SourceBytes(contentsOfFile: path("still/pillow/jpeg/hopper.jpg"))).bitmap
        #expect(psnr(turned.bitmap, try Resampler().resize(upright, width: 40, height: 40)) > 25)
        let rectangle = try StreamingDownscale.run(fileAt: path("still/pillow/jpeg/orientation_rectangle.jpg")) { info in
            [(info.uprightWidth, info.uprightHeight)]
        }.images[0].bitmap
        #expect((rectangle.width, rectangle.height) == (1, 2))
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
}
