import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Pipeline
import TestSupport
import Testing
import TesseraCore

@Suite("Pack stage")
struct PackStageTests {
    @Test("already-compressed formats are stored without trying; text is compressed; never and always do as they say")
    func compressionDecisions() throws {
        // A PNG signature followed by zeros: xz would shrink it, so only "not even tried" leaves it stored.
        let pngLike = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 100_000)
        let json = Array(String(repeating: "{\"color\": {\"red\": \"0.5\"}},\n", count: 4000).utf8)
        let auto = PayloadCompressor(mode: .auto)
        #expect(try auto.compressIfItPays(pngLike, kind: .image, name: "assets/a.png") == nil)
        #expect(try auto.compressIfItPays(pngLike, kind: .data, name: "data/blob.bin") == nil, "sniffed as PNG")
        #expect(try auto.compressIfItPays(pngLike, kind: .readyBitmap, name: "bitmaps/a.bitmap") == nil)
        let compressed = try #require(try auto.compressIfItPays(json, kind: .data, name: "data/c.json"))
        #expect(try XZ.decompress(compressed, expectedSize: json.count) == json)
        #expect(try PayloadCompressor(mode: .never).compressIfItPays(json, kind: .data, name: "data/c.json") == nil)
        let always = try #require(try PayloadCompressor(mode: .always).compressIfItPays(pngLike, kind: .image,
                                                                                        name: "assets/a.png"))
        #expect(always.count < pngLike.count / 10)
        #expect(try PayloadCompressor(mode: .always).compressIfItPays(pngLike, kind: .readyBitmap, name: "b.bitmap") == nil)
    }

    @Test("random bytes are refused by the cheap probe; a payload saving less than min-saving stays stored")
    func probeRefusesIncompressible() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(try PayloadCompressor(mode: .auto).compressIfItPays(noise, kind: .data, name: "data/noise.bin") == nil)
        #expect(try PayloadCompressor(mode: .always).compressIfItPays(noise, kind: .data, name: "data/noise.bin") == nil)
    }

    @Test("auto stores a PDF untried (its streams are coded already) and a text head over incompressible data; always still tries the PDF")
    func probeSamplesTheWholePayload() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<600_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // An SVG-like text head (80 KiB) over random bytes: a head-only probe passed it.
        let textHead = Array(String(repeating: "<path d=\"M0 0 L10 10\"/>\n", count: 3400).utf8)
        let mixed = textHead + noise
        #expect(try PayloadCompressor(mode: .auto).compressIfItPays(mixed, kind: .data, name: "data/mixed.svg") == nil)
        let pdfLike = Array("%PDF-1.7\n".utf8) + [UInt8](repeating: 0x20, count: 200_000)
        #expect(try PayloadCompressor(mode: .auto).compressIfItPays(pdfLike, kind: .image, name: "assets/Map.pdf") == nil)
        #expect(try PayloadCompressor(mode: .auto).compressIfItPays(pdfLike, kind: .data, name: "data/map.bin") == nil,
                "sniffed as PDF")
        #expect(try PayloadCompressor(mode: .always).compressIfItPays(pdfLike, kind: .image, name: "assets/Map.pdf") != nil)
        #expect(PayloadCompressor.probeWindows(count: 1_000_000) == [0..<65536, 467232..<532768, 934464..<1_000_000])
    }

    @Test("a file streamed into a bundle gives the same bytes as the same contents added from memory")
    func streamedEqualsInMemory() throws {
        let workspace = try Workspace()
        let contents = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try workspace.write(contents, as: "big.bin")
        try workspace.write(Array("tiny".utf8), as: "tiny.txt")
        let never = PayloadCompressor(mode: .never)
        let streamed = try BundleWriter(path: "\(workspace.root)/streamed.tsb", compressor: never)
        try streamed.addFile(name: "big.bin", kind: .data, traits: "", path: "\(workspace.input)/big.bin")
        try streamed.addFile(name: "bitmap", kind: .readyBitmap, traits: "", path: "\(workspace.input)/tiny.txt")
        let a = try streamed.finish()
        let memory = try BundleWriter(path: "\(workspace.root)/memory.tsb", compressor: never)
        try memory.add(name: "big.bin", kind: .data, traits: "", contents: contents)
        try memory.add(name: "bitmap", kind: .readyBitmap, traits: "", contents: Array("tiny".utf8))
        let b = try memory.finish()
        let bytesA = try #require(FileManager.default.contents(atPath: "\(workspace.root)/streamed.tsb"))
        let bytesB = try #require(FileManager.default.contents(atPath: "\(workspace.root)/memory.tsb"))
        #expect(bytesA == bytesB)
        #expect(a.sha256 == ContentHash.of(bytesA) && b.sha256 == a.sha256 && a.bytes == bytesA.count)
        #expect(a.index.entries.first?.sha256 == ContentHash.of(contents))
        // The bitmap's payload starts on a 4096-byte boundary, as memory-mapping needs.
        #expect(a.index.entries.last.map { $0.payloadOffset % 4096 } == 0)
        let bundle = try BundleFile(path: "\(workspace.root)/streamed.tsb")
        let entry = try #require(bundle.index.entries.first { $0.name == "big.bin" })
        #expect(try bundle.contents(of: entry) == contents)
    }

    private func build(output: String, jobs: Int = 2) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition,
                                                         inputFolder: "\(Workspace.corpus)/xcassets/tutsplus-odr",
                                                         outputFolder: output,
                                                         scheduler: SchedulerOptions(maxConcurrentJobs: jobs)))
    }

    @Test("device classes selecting the same files share one bundle file, which each device's manifests name")
    func identicalBundlesWrittenOnce() async throws {
        let workspace = try Workspace()
        let output = "\(workspace.root)/out"
        let outcome = try await build(output: output)
        #expect(outcome.exitStatus == 0)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        // Two 2x iPads without dark-mode differences get the same variants of every asset.
        let pad = manifest.bundles.filter { $0.device == "iPad12,1" }.sorted { $0.pack < $1.pack }
        let pad2 = manifest.bundles.filter { $0.device == "iPad14,1" }.sorted { $0.pack < $1.pack }
        #expect(!pad.isEmpty && pad.map(\.path) == pad2.map(\.path) && pad.map(\.sha256) == pad2.map(\.sha256))
        // The catalog's largest scale is 2x, so the 3x phone gets the iPads' files; the 1x phone gets its own.
        let phone3x = manifest.bundles.filter { $0.device == "iPhone15,2" }.sorted { $0.pack < $1.pack }
        #expect(phone3x.map(\.path) == pad.map(\.path))
        let phone1x = manifest.bundles.filter { $0.device == "iPhone2,1" }.map(\.path)
        #expect(Set(phone1x).isDisjoint(with: pad.map(\.path)), "a 1x phone gets other files than a 2x iPad")
        for bundle in manifest.bundles {
            #expect(try ContentHash.ofFile(at: "\(output)/\(bundle.path)") == bundle.sha256, "\(bundle.path)")
            let size = try FileManager.default.attributesOfItem(atPath: "\(output)/\(bundle.path)")[.size] as? Int
            #expect(size == bundle.bytes)
        }
        // Managed asset packs: one ID per shared bundle, naming both iPads.
        let index = try JSONDecoder().decode(ManagedAssetPackIndex.self,
                                             from: Data(contentsOf: URL(fileURLWithPath: "\(output)/apple/asset-packs.json")))
        let padPacks = index.assetPacks.filter { $0.devices.contains("iPad14,1") }
        #expect(Set(padPacks.compactMap(\.bundle?.sha256)) == Set(pad2.map(\.sha256)))
        #expect(padPacks.allSatisfy { $0.devices.contains("iPad12,1") })
        let stages = outcome.report.stages
        #expect(stages[.bundle]?.jobs == Set(manifest.bundles.map(\.path)).count)
        #expect(stages[.manifest]?.jobs == 1)
        // Generated stills are encoded in their downscale pass, whose time counts for downscale.
        #expect((stages[.downscale]?.cpuSeconds ?? 0) > 0 && (stages[.write]?.wallSeconds ?? 0) > 0)
        #expect(stages[.encode] == nil)
        #expect(stages[.compress] == nil, "PNG variants are never tried")
    }

    @Test("pack: compress takes auto, always or never; anything else is an error at its line")
    func compressOption() throws {
        let base = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  slice:\n  pack:\n    compress: "
        #expect(try PipelineFileReader.parse(base + "never\n", file: "p.yml").pack?.compression == .never)
        #expect(try PipelineFileReader.parse(base + "always\n    xz-level: 9\n", file: "p.yml").pack?.compressionLevel == 9)
        #expect(try PipelineFileReader.parse("version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  slice:\n  pack:\n",
                                             file: "p.yml").pack?.compression == .auto)
        do {
            _ = try PipelineFileReader.parse(base + "sometimes\n", file: "p.yml")
            Issue.record("accepted an unknown mode")
        } catch {
            #expect(error.description.hasPrefix("p.yml:8:15: pipeline: 'stages.pack.compress': 'sometimes' is not a compression mode"))
        }
    }
}
