import Decoding
import Encoding
import Foundation
import Manifests
import Pipeline
import ReadyBitmaps
import TestSupport
import Testing
import TesseraCore

@Suite("Building WebP, GIF and ready bitmaps")
struct FormatsAndBitmapsBuildTests {
    static let pipeline = """
        version: 1
        name: bitmaps
        stages:
          decode:
          downscale:
          decompress:
            include: ["icons/*", "stills/**"]
            max-bytes: 200KB
          manifest:
        """

    @Test("WebP and GIF masters get variants, animations stay animations with their timing, marked assets get bitmaps")
    func mixedFormats() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "icons/alpha@3x.png")
        try workspace.add("still/pillow/webp/flower.webp", as: "stills/flower@3x.webp")
        try workspace.add("animated/pillow/hopper.gif", as: "stills/hopper@3x.gif")
        try workspace.add("animated/sdwebimage/TestImage.gif", as: "anim/spinner@2x.gif")
        let output = "\(workspace.root)/out"
        let definition = try PipelineFileReader.parse(Self.pipeline, file: "bitmaps.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.report.failures.isEmpty)
        let manifest = try #require(outcome.manifest)
        let byName = Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.name.name, $0.variants) })

        // The animation's 1x is an animated GIF with every frame, the same delays and loop field,
        // and the manifest carries its timing record; no bitmap is made for it.
        #expect(byName["anim/spinner"]?.map(\.scale) == [.x1, .x2])
        #expect(byName["anim/spinner"]?.first?.readyBitmap == nil)
        let spinner = try #require(manifest.assets.first { $0.name.name == "anim/spinner" })
        let timing = try #require(spinner.animation)
        #expect(timing.delaysMs == [120, 120, 120, 120, 120] && timing.tickMs == 120 && timing.repeats == [1, 1, 1, 1, 1])
        #expect(timing.loopCount == 0 && timing.plays == nil)
        let small = try SourceBytes(contentsOfFile: "\(output)/variants/anim/spinner.gif")
        let records = try ImageDecoders.animationRecords(of: small)
        #expect(records.frames.map(\.delayMs) == [120, 120, 120, 120, 120] && records.loopField == 0)
        #expect((records.canvasWidth, records.canvasHeight) == (25, 25))
        // A still GIF master gives PNG variants.
        #expect(byName["stills/hopper"]?.map(\.path) == ["variants/stills/hopper.png", "variants/stills/hopper@2x.png",
                                                         "variants/stills/hopper@3x.gif"])
        // WebP stays WebP.
        #expect(byName["stills/flower"]?.map(\.format) == [.webp, .webp, .webp])

        // Ready bitmaps: one per variant of marked assets, within the 200 KB budget, decodable.
        let flower3x = try #require(byName["stills/flower"]?.last?.readyBitmap)
        #expect((flower3x.width, flower3x.height) == (258, 193))
        for variants in [byName["icons/alpha"], byName["stills/flower"], byName["stills/hopper"]] {
            for variant in variants ?? [] {
                let ready = try #require(variant.readyBitmap, "\(variant.path) has no bitmap")
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: "\(output)/\(ready.path)")))
                #expect(ContentHash.of(bytes) == ready.sha256 && bytes.count == ready.bytes)
                let (header, _) = try ReadyBitmapReader.read(bytes, path: ready.path)
                #expect(header.width == ready.width && header.height == ready.height && header.layout == .bgra8)
                #expect(header.width * header.height * 4 <= 200 * 1024)
            }
        }
        let alpha1x = try #require(byName["icons/alpha"]?.first?.readyBitmap)
        #expect(alpha1x.path == "variants/icons/alpha.bitmap" && alpha1x.width == 11)
    }

    @Test("timing sub-images: merge makes 4 frames of 500 ms in the manifest and the variant, separate keeps 8",
          arguments: [("merge", [500, 500, 500, 500]), ("separate", [0, 500, 0, 500, 0, 500, 0, 500])])
    func subImagePolicyIsConsistent(policy: String, delays: [Int]) async throws {
        let workspace = try Workspace()
        // Eight images alternating 0 and 500 ms: four frames drawn as two images each.
        let encoder = try AnimatedGIFEncoder(width: 8, height: 8, plays: .forever)
        for index in 0..<8 {
            let colour: [UInt8] = [UInt8(index * 30), 100, UInt8(255 - index * 30), 255]
            let pixels = Array([[UInt8]](repeating: colour, count: 64).joined())
            try encoder.add(try Bitmap(width: 8, height: 8, format: .rgba8, alpha: .straight, pixels: pixels),
                            durationMs: index % 2 == 0 ? 0 : 500)
        }
        try workspace.write(try encoder.finish(), as: "anim/pulse@2x.gif")
        let yaml = "version: 1\nname: t\nstages:\n  decode:\n  downscale:\n  timing:\n    sub-images: \(policy)\n  manifest:\n"
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(
            definition: try PipelineFileReader.parse(yaml, file: "t.yml"), inputFolder: workspace.input,
            outputFolder: output))
        #expect(outcome.report.failures.isEmpty)
        let asset = try #require(outcome.manifest?.assets.first { $0.name.name == "anim/pulse" })
        let timing = try #require(asset.animation)
        #expect(timing.delaysMs == delays)
        // The 1x variant holds the same frames: read back image by image, every image is one of them.
        let small = try SourceBytes(contentsOfFile: "\(output)/variants/anim/pulse.gif")
        let records = try ImageDecoders.animationRecords(of: small, subImages: .separate)
        #expect(records.frames.map(\.delayMs) == delays)
    }

    @Test("a GIF of two zero-delay layers and a timed one is still under merge (PNG variants) and animated under separate (GIF variants with timing)",
          arguments: [("merge", false), ("separate", true)])
    func zeroDelayGIFFollowsThePolicy(policy: String, animated: Bool) async throws {
        let workspace = try Workspace()
        let encoder = try AnimatedGIFEncoder(width: 8, height: 8, plays: .forever)
        for index in 0..<3 {
            let colour: [UInt8] = [UInt8(index * 80), 40, 200, 255]
            try encoder.add(try Bitmap(width: 8, height: 8, format: .rgba8, alpha: .straight,
                                       pixels: Array([[UInt8]](repeating: colour, count: 64).joined())),
                            durationMs: index == 2 ? 500 : 0)
        }
        try workspace.write(try encoder.finish(), as: "anim/layers@2x.gif")
        let yaml = "version: 1\nname: t\nstages:\n  decode:\n  downscale:\n  timing:\n    sub-images: \(policy)\n  manifest:\n"
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(
            definition: try PipelineFileReader.parse(yaml, file: "t.yml"), inputFolder: workspace.input,
            outputFolder: output))
        #expect(outcome.report.failures.isEmpty)
        let asset = try #require(outcome.manifest?.assets.first { $0.name.name == "anim/layers" })
        #expect((asset.animation != nil) == animated)
        #expect(asset.animation?.delaysMs == (animated ? [0, 0, 500] : nil))
        let oneX = try #require(asset.variants.first { $0.scale == .x1 })
        #expect(oneX.path == (animated ? "variants/anim/layers.gif" : "variants/anim/layers.png"))
        #expect(FileManager.default.fileExists(atPath: "\(output)/\(oneX.path)"))
    }
}
