import BuiltInPipelines
import Foundation
import Encoding
import Pipeline
import TestSupport
import Testing
import TesseraCore

@Suite("Pipeline files")
struct PipelineFileReaderTests {
    private func parseError(_ yaml: String) -> TesseraError? {
        do {
            _ = try PipelineFileReader.parse(yaml, file: "p.yml")
            return nil
        } catch {
            return error
        }
    }

    @Test("the shipped app-thinning pipeline reads with defaults for a real app: no sample globs, relative bundle URLs, current devices")
    func shippedPipeline() throws {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        #expect(definition.name == "app-thinning")
        #expect(definition.decompress == nil)
        #expect(definition.pack?.prefetchOrder == [])
        #expect(definition.pack?.baseURL == "")
        #expect(definition.slice?.devices == ["iPhone18,2", "iPhone14,5", "iPhone12,8", "iPad17,1", "iPad12,1"])
    }

    @Test("the samples pipeline reads with its stated options")
    func samplesPipeline() throws {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        #expect(definition.name == "samples")
        #expect(definition.variants.scales == [.x1, .x2, .x3])
        #expect(definition.downscale?.filter == .lanczos3)
        #expect(definition.encode.jpeg.quality == 90)
        #expect(definition.encode.png.effort == .default)
        #expect(definition.encode.png.compressionLevel == 7)
        #expect(definition.decode.maxPixels == 268_435_456)
        #expect(definition.manifest.file == "manifest.json")
        #expect(definition.slice?.devices == ["iPhone15,2", "iPhone12,1", "iPad12,1", "iPad14,1", "iPhone2,1"])
        #expect(try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml").slice?.devices.count == 6)
    }

    @Test("png-effort picks the PNG level and png-level overrides it, whichever comes first")
    func pngEffortAndLevel() throws {
        let base = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n"
        #expect(try PipelineFileReader.parse(base + "    png-effort: max\n", file: "p.yml").encode.png.compressionLevel == 12)
        #expect(try PipelineFileReader.parse(base + "    png-effort: fast\n", file: "p.yml").encode.png.compressionLevel == 3)
        let both = try PipelineFileReader.parse(base + "    png-level: 9\n    png-effort: fast\n", file: "p.yml")
        #expect(both.encode.png.effort == .fast && both.encode.png.compressionLevel == 9)
    }

    @Test("an unknown device in the slice stage is an error at its line, suggesting the closest")
    func unknownDevice() throws {
        let yaml = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  slice:\n    devices: [\"iPhone15,2\", iphone99]\n"
        let error = try #require(parseError(yaml))
        #expect(error.description.hasPrefix("p.yml:7:29: pipeline: 'stages.slice.devices[1]': unknown device 'iphone99'; closest known:"))
    }

    @Test("stages given with no options take their defaults; leaving out downscale turns generation off")
    func defaults() throws {
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: minimal
            stages:
              decode:
              manifest:
            """, file: "p.yml")
        #expect(definition.downscale == nil)
        #expect(definition.variants.scales == [.x1, .x2, .x3])
    }

    @Test("png-palette is off by default: the PNG encoder and its cache-key options are exactly those before palettes")
    func paletteOffByDefault() throws {
        let base = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n"
        let png = try PipelineFileReader.parse(base + "    png-effort: default\n", file: "p.yml").encode.png
        #expect(png.palette == .off)
        #expect(png == PNGEncoder() && png.compressionLevel == 7)
        let off = try PipelineFileReader.parse(base + "    png-palette: off\n    png-palette-quality: 50-60\n", file: "p.yml")
        #expect(try StableJSON.compact(off.encode.png) == StableJSON.compact(png))
    }

    @Test("png-palette: lossy reads its quality range and speed into the encoder and its cache key (or, built without libimagequant, is refused where it is written)")
    func paletteLossy() throws {
        let yaml = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-palette: lossy\n"
            + "    png-palette-quality: 70-95\n    png-palette-speed: 3\n"
        if PNGPalette.isAvailable {
            let png = try PipelineFileReader.parse(yaml, file: "p.yml").encode.png
            #expect(png.palette == PNGPalette(mode: .lossy, quality: 70...95, speed: 3))
            let key = String(decoding: try StableJSON.compact(png), as: UTF8.self)
            #expect(key.contains(#""quality":[70,95]"#) && key.contains(#""speed":3"#) && key.contains(#""library":"libimagequant 2."#))
        } else {
            let error = try #require(parseError(yaml))
            #expect(error.description.hasPrefix("p.yml:7:18: pipeline: 'stages.encode.png-palette': 'lossy': this Tessera was built without libimagequant"))
        }
    }

    @Test("errors name the file, the line and the key", arguments: [
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  sharpen:\n", "p.yml:6:3: pipeline: 'stages.sharpen': unknown key; expected one of decode, variants, rasterize, downscale, encode, decompress, timing, slice, pack, manifest, report"),
        ("version: 1\nname: x\nstages:\n  decode:\n    max-pixel: 5\n  manifest:\n", "p.yml:5:5: pipeline: 'stages.decode.max-pixel': unknown key; expected one of max-pixels"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    jpeg-quality: high\n", "p.yml:7:19: pipeline: 'stages.encode.jpeg-quality': expected a whole number, found 'high'"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    jpeg-quality: 101\n", "p.yml:7:19: pipeline: 'stages.encode.jpeg-quality': 101 is out of range 1…100"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-effort: best\n", "p.yml:7:17: pipeline: 'stages.encode.png-effort': 'best' is not one of fast, default, max"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-level: 13\n", "p.yml:7:16: pipeline: 'stages.encode.png-level': 13 is out of range 0…12"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-palette: maybe\n", "p.yml:7:18: pipeline: 'stages.encode.png-palette': 'maybe' is not one of off, lossy"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-palette-quality: 90-65\n", "p.yml:7:26: pipeline: 'stages.encode.png-palette-quality': '90-65' is not a quality range: use MIN-MAX, each 0–100 with MIN ≤ MAX, e.g. 65-90"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-palette-quality: 80\n", "p.yml:7:26: pipeline: 'stages.encode.png-palette-quality': '80' is not a quality range: use MIN-MAX, each 0–100 with MIN ≤ MAX, e.g. 65-90"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n    png-palette-speed: 11\n", "p.yml:7:24: pipeline: 'stages.encode.png-palette-speed': 11 is out of range 1…10"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  downscale:\n    filter: bicubic\n", "p.yml:7:13: pipeline: 'stages.downscale.filter': 'bicubic' is not one of box, triangle, mitchell, catmull-rom, lanczos3"),
        ("version: 1\nname: x\nstages:\n  manifest:\n", "p.yml:4:3: pipeline: 'stages': the 'decode' stage is required"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  variants:\n    scales: [1x, 5x]\n", "p.yml:7:18: pipeline: 'stages.variants.scales[1]': '5x' is not a scale: use 1x, 2x, 3x or 4x"),
        ("version: 2\nname: x\nstages: {}\n", "p.yml:1:10: pipeline: 'version': this Tessera reads pipeline version 1"),
        ("name: x\nstages: {}\n", "p.yml:1:1: pipeline: 'version': missing; this Tessera reads version 1"),
        ("version: 1\nname: [x\n", "p.yml:3:1: pipeline: not valid YAML: did not find expected ',' or ']'"),
    ])
    func errorsAreLocated(yaml: String, expected: String) throws {
        let error = try #require(parseError(yaml))
        #expect(error.kind == .configuration)
        #expect(error.description == expected)
    }

    @Test("a duplicated key is an error at the line of the repeat, naming the first", arguments: [
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  decode:\n    max-pixels: 5\n",
         "p.yml:6:3: pipeline: not valid YAML: the key 'decode' appears twice (first at line 4)"),
        ("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n    file: a.json\n    # a comment\n\n    file: b.json\n",
         "p.yml:9:5: pipeline: not valid YAML: the key 'file' appears twice (first at line 6)"),
        ("version: 1\nname: x\nname: y\nstages:\n  decode:\n  manifest:\n",
         "p.yml:3:1: pipeline: not valid YAML: the key 'name' appears twice (first at line 2)"),
        ("version: 1\nname: x\nstages: {decode: {}, manifest: {}, decode: {}}\n",
         "p.yml:3:10: pipeline: not valid YAML: the key 'decode' appears more than once in one mapping"),
    ])
    func duplicateKeys(yaml: String, expected: String) throws {
        let error = try #require(parseError(yaml))
        #expect(error.kind == .configuration)
        #expect(error.description == expected)
    }

    @Test("timing options: sub-images merge|separate, clamp min:N up to one hour, max-slots up to 100000")
    func timingOptions() throws {
        let base = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  timing:\n"
        #expect(try PipelineFileReader.parse(base + "    clamp: none\n", file: "p.yml").timing.subImages == .merge)
        let separate = try PipelineFileReader.parse(base + "    sub-images: separate\n    clamp: min:3600000\n", file: "p.yml")
        #expect(separate.timing.subImages == .separate && separate.timing.clamp == .minimum(3_600_000))
        #expect(parseError(base + "    sub-images: layers\n")?.description
                == "p.yml:7:17: pipeline: 'stages.timing.sub-images': 'layers' is not one of merge, separate")
        #expect(parseError(base + "    clamp: min:1000000000000\n")?.description
                == "p.yml:7:12: pipeline: 'stages.timing.clamp': 'min:1000000000000' is not a clamp policy: use browser, none or min:N with N from 0 to 3600000 ms (1 hour)")
        #expect(parseError(base + "    max-slots: 100001\n")?.description
                == "p.yml:7:16: pipeline: 'stages.timing.max-slots': 100001 is out of range 1…100000")
    }

    @Test("a missing pipeline file is an error naming it")
    func missingFile() throws {
        do {
            _ = try PipelineFileReader.read(path: "/nowhere/p.yml")
            Issue.record("read a missing file")
        } catch {
            #expect(error.description == "/nowhere/p.yml: pipeline: no such pipeline file, and no built-in pipeline of that name (built in: app-thinning, android; `tessera init NAME` writes one to edit)")
        }
    }

    @Test("a built-in pipeline's name reads the YAML embedded from Pipelines/, byte for byte, where no such file exists")
    func builtInByName() throws {
        for name in ["app-thinning", "android"] {
            let embedded = try #require(BuiltInPipelines.text(named: name))
            let file = try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/\(name).yml", encoding: .utf8)
            #expect(embedded == file)
            let definition = try PipelineFileReader.read(path: name)
            let fromFile = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/\(name).yml")
            #expect(definition.fingerprint == fromFile.fingerprint)
        }
        // A path is never taken for a name: `x/app-thinning` must be a file.
        #expect(throws: TesseraError.self) { try PipelineFileReader.read(path: "nowhere/app-thinning") }
    }
}

/// Issue 39, item 5: YAML aliases cannot make a small file stand for gigabytes.
@Suite("YAML alias expansion")
struct YAMLAliasTests {
    @Test("a value aliased a thousand times is refused at once, naming the file; a few aliases are fine")
    func billionLaughsIsRefused() throws {
        let big = String(repeating: "x", count: 100_000)
        var text = "version: 1\nname: laughs\nx-big: &big \"\(big)\"\nx-many: ["
        text += Array(repeating: "*big", count: 1_000).joined(separator: ", ") + "]\nstages:\n  decode:\n  manifest:\n"
        let started = Date()
        let error = #expect(throws: TesseraError.self) { try PipelineFileReader.parse(text, file: "laughs.yml") }
        #expect(error?.reason.contains("once its aliases are expanded") == true && error?.file?.hasPrefix("laughs.yml") != false,
                "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 10)
        let few = "version: 1\nname: few\nstages:\n  decode: &d {}\n  manifest:\n"
        #expect((try? PipelineFileReader.parse(few, file: "few.yml")) != nil)
    }
}
