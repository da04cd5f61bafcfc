import Decoding
import Delivery
import Foundation
import Manifests
import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Single-scale PDF and SVG sets are drawn at every scale a device needs, as Xcode does, instead
/// of being copied unchanged to every device (issue 26, item 2). Real vectors from mastodon-ios
/// (Tests/Fixtures/vectors/SOURCES.md).
@Suite("Vector image sets in a build")
struct VectorBuildTests {
    private static let vectors = "\(Workspace.packageRoot)/Tests/Fixtures/vectors"

    /// A catalog of three vector sets (one preserving its vectors) and a damaged SVG.
    private func layOutCatalog(in workspace: Workspace) throws {
        func set(_ name: String, file: String, preserves: Bool = false, bytes given: [UInt8]? = nil) throws {
            let bytes = try given ?? [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.vectors)/\(file)")))
            try workspace.write(bytes, as: "App/Assets.xcassets/\(name).imageset/\(file)")
            let properties = preserves ? #","properties":{"preserves-vector-representation":true}"# : ""
            try workspace.write(Array(#"{"images":[{"idiom":"universal","filename":"\#(file)"}],"info":{"author":"xcode","version":1}\#(properties)}"#.utf8),
                                as: "App/Assets.xcassets/\(name).imageset/Contents.json")
        }
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "App/Assets.xcassets/Contents.json")
        try set("brand", file: "brand_logo.svg", preserves: true)
        try set("seal", file: "checkmark.seal.fill.svg")
        try set("gear", file: "gear.pdf")
        try set("broken", file: "cut.svg", bytes: Array("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect".utf8))
    }

    private func build(_ workspace: Workspace, output: String = "out") async throws -> BuildOutcome {
        var definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        // Untagged sets in the base pack: these tests pin what packs hold.
        definition.pack?.untagged = .pack
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                         outputFolder: "\(workspace.root)/\(output)"))
    }

    @Test("an SVG set becomes 1x, 2x and 3x PNGs at the page size in points × the scale, matching rsvg-convert")
    func svgSetIsRenderedPerScale() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        let outcome = try await build(workspace)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let brand = try #require(manifest.assets.first { $0.name.name == "brand" })
        // brand_logo.svg is 18 × 20 (its viewBox).
        #expect(brand.variants.map { "\($0.scale) \($0.format) \($0.width)x\($0.height) \($0.generated)" }
            == ["1x png 18x20 true", "2x png 36x40 true", "3x png 54x60 true"])
        let seal = try #require(manifest.assets.first { $0.name.name == "seal" })
        #expect(seal.variants.map { "\($0.width)x\($0.height)" } == ["44x44", "89x89", "133x133"])
        // The 3x render is the reference renderer's picture.
        let made = try ImageDecoders.decode(SourceBytes(contentsOfFile: "\(workspace.root)/out/\(brand.variants[2].path)"))
        let reference = try ImageDecoders.decode(SourceBytes(contentsOfFile: "\(Self.vectors)/reference/brand_logo@3x.png"))
        #expect(PixelAgreement.psnrOverWhite(made.bitmap, reference.bitmap) >= 40)
    }

    @Test("a set that preserves its vectors ships the SVG beside each device's render; the others do not")
    func preservedVectorShipsBesideTheRender() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        let outcome = try await build(workspace)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let brand = try #require(manifest.assets.first { $0.name.name == "brand" })
        let vector = try #require(brand.vector)
        #expect(vector.format == .svg && vector.path == "variants/brand.svg")
        let original = try Data(contentsOf: URL(fileURLWithPath: "\(Self.vectors)/brand_logo.svg"))
        #expect(vector.sha256 == ContentHash.of(original) && vector.bytes == original.count)
        #expect(manifest.assets.first { $0.name.name == "seal" }?.vector == nil)
        // A 3x phone gets the 3x render and the SVG; a 2x iPad the 2x render and the same SVG.
        let phone = try slice(outcome, device: "iPhone18,2")
        #expect(phone.filter { $0.asset == "brand" }.map { "\($0.action) \($0.path ?? "-") \($0.vector ?? "-")" }
            == ["render variants/brand@3x.png variants/brand.svg"])
        let pad = try slice(outcome, device: "iPad12,1")
        #expect(pad.filter { $0.asset == "seal" }.map { "\($0.action) \($0.path ?? "-") \($0.vector ?? "-")" }
            == ["render variants/seal@2x.png -"])
        // The phone's base bundle holds both files of the preserved set.
        let bundle = try #require(manifest.bundles.first { $0.device == "iPhone18,2" })
        let file = try BundleFile(path: "\(workspace.root)/out/\(bundle.path)")
        let names = file.index.entries.map(\.name)
        #expect(names.contains("assets/brand@3x.png") && names.contains("assets/brand.svg"))
        #expect(!names.contains("assets/brand@2x.png") && !names.contains("assets/seal.svg"))
        let render = try #require(file.index.entries.first { $0.name == "assets/brand@3x.png" })
        #expect(try file.traits(of: render) == "appearance=any;idiom=universal;preserves-vector=true;scale=3x")
        let svg = try #require(file.index.entries.first { $0.name == "assets/brand.svg" })
        #expect(try file.traits(of: svg) == "appearance=any;idiom=universal;preserves-vector=true;scale=any")
    }

    @Test("a damaged SVG fails its own asset, named with the reason; the other sets are built")
    func damagedVectorFailsAlone() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        let outcome = try await build(workspace)
        #expect(outcome.exitStatus == 1)
        let failure = try #require(outcome.report.failures.first { $0.file.hasSuffix("cut.svg") })
        #expect(failure.stage == .rasterize)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.assets.map(\.name.name).contains("brand") && manifest.assets.map(\.name.name).contains("seal"))
        #expect(!manifest.assets.map(\.name.name).contains("broken"))
    }

    @Test("a preserved vector whose render fails ships in no bundle: the bundles hold what the manifest lists, nothing more")
    func failedPreservedVectorShipsNowhere() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        // Not the damaged bytes of `broken`: the same bytes would be one render job, its failure named once.
        try workspace.write(Array("<svg xmlns='http://www.w3.org/2000/svg' width='12' height='12'><circle".utf8),
                            as: "App/Assets.xcassets/kept.imageset/kept.svg")
        try workspace.write(Array(#"{"images":[{"idiom":"universal","filename":"kept.svg"}],"properties":{"preserves-vector-representation":true}}"#.utf8),
                            as: "App/Assets.xcassets/kept.imageset/Contents.json")
        let outcome = try await build(workspace)
        #expect(outcome.report.failures.contains { $0.file.hasSuffix("kept.svg") })
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(!manifest.assets.contains { $0.name.name == "kept" })
        for bundle in manifest.bundles {
            let names = try BundleFile(path: "\(workspace.root)/out/\(bundle.path)").index.entries.map(\.name)
            #expect(!names.contains { $0.contains("kept") }, "\(bundle.path): \(names)")
            #expect(names.contains("assets/brand.svg") || bundle.device.hasPrefix("android"))
        }
    }

    @Test("a PDF MuPDF repairs (no cross-reference table: 'cannot find startxref') is drawn at every scale, with one warning naming the file and the repair")
    func repairedPDFIsDrawn() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        try FileManager.default.removeItem(atPath: "\(workspace.input)/App/Assets.xcassets/broken.imageset")
        // A 10 × 10 pt page filled blue, written without its cross-reference table and startxref.
        let content = "0 0 1 rg 0 0 10 10 re f"
        let pdf = [
            "%PDF-1.4", "1 0 obj", "<< /Type /Catalog /Pages 2 0 R >>", "endobj",
            "2 0 obj", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "endobj",
            "3 0 obj", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 4 0 R >>", "endobj",
            "4 0 obj", "<< /Length \(content.utf8.count) >>", "stream", content, "endstream", "endobj",
            "trailer", "<< /Root 1 0 R >>", "%%EOF", "",
        ].joined(separator: "\n")
        try workspace.write(Array(pdf.utf8), as: "App/Assets.xcassets/mended.imageset/mended.pdf")
        try workspace.write(Array(#"{"images":[{"idiom":"universal","filename":"mended.pdf"}],"info":{"author":"xcode","version":1}}"#.utf8),
                            as: "App/Assets.xcassets/mended.imageset/Contents.json")
        let outcome = try await build(workspace)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let repairs = outcome.report.warnings.filter { $0.reason.contains("repaired") }
        #expect(repairs.count == 1, "\(outcome.report.warnings.map(\.message))")
        #expect(repairs.first?.file.hasSuffix("mended.imageset/mended.pdf") == true)
        #expect(repairs.first?.reason.contains("cannot find startxref") == true)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let mended = try #require(manifest.assets.first { $0.name.name == "mended" })
        #expect(mended.variants.map { "\($0.scale) \($0.width)x\($0.height)" } == ["1x 10x10", "2x 20x20", "3x 30x30"])
        let drawn = try ImageDecoders.decode(SourceBytes(contentsOfFile: "\(workspace.root)/out/\(mended.variants[2].path)"))
        #expect(Array(drawn.bitmap.pixels[0 ..< 4]) == [0, 0, 255, 255])
    }

    @Test("a PDF worker that crashes (SIGSEGV, as mutool 1.21 did) is replaced: the render is tried again on a fresh worker and the build succeeds with the same pixels")
    func crashedWorkerIsRetried() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        try FileManager.default.removeItem(atPath: "\(workspace.input)/App/Assets.xcassets/broken.imageset")
        // The crashing mutool keeps its marker beside itself: a copy in the workspace.
        let tool = "\(workspace.root)/tool/mutool"
        try FileManager.default.createDirectory(atPath: "\(workspace.root)/tool", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Tests/Fixtures/servers/crashing-mutool.sh", toPath: tool)
        let pipeline = "\(Workspace.packageRoot)/Pipelines/app-thinning.yml"
        let crashed = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/crashed", "-j", "1"],
                                             environment: ["TESSERA_MUTOOL": tool, "TESSERA_PDF_RENDERER": "process"])
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/tool/crashed"), "the worker never crashed: \(crashed.stderr)")
        #expect(crashed.status == 0, "\(crashed.stderr)")
        let plain = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/plain", "-j", "1"],
                                           environment: ["TESSERA_PDF_RENDERER": "process"])
        #expect(plain.status == 0)
        for scale in ["", "@2x", "@3x"] {
            let path = "variants/gear\(scale).png"
            #expect(FileManager.default.contents(atPath: "\(workspace.root)/crashed/\(path)") != nil
                && FileManager.default.contents(atPath: "\(workspace.root)/crashed/\(path)") == FileManager.default.contents(atPath: "\(workspace.root)/plain/\(path)"), "\(path)")
        }
    }

    @Test("a PDF set is rendered when the build has a PDF renderer, and otherwise shipped as it is with a warning")
    func pdfSetFollowsTheRenderer() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        let outcome = try await build(workspace)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let gear = try #require(manifest.assets.first { $0.name.name == "gear" })
        #if PDFRasterizing
        // gear.pdf is 28 × 28 pt.
        #expect(gear.variants.map { "\($0.scale) \($0.format) \($0.width)x\($0.height)" }
            == ["1x png 28x28", "2x png 56x56", "3x png 84x84"])
        #else
        #expect(gear.variants.map { "\($0.format) \($0.generated)" } == ["pdf false"])
        #expect(outcome.report.warnings.contains { $0.file.hasSuffix("gear.pdf") && $0.reason.contains("without a PDF renderer") })
        #endif
    }

    @Test("two builds of the same vectors give byte-identical outputs")
    func vectorBuildsAreReproducible() async throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        _ = try await build(workspace, output: "a")
        _ = try await build(workspace, output: "b")
        #expect(try workspace.reproducibleFiles(under: "\(workspace.root)/a")
            == workspace.reproducibleFiles(under: "\(workspace.root)/b"))
    }

    @Test("tessera slice shows a vector set as a render at the device's scale, sized by its page; --no-rasterize as the file itself")
    func sliceReportShowsRenders() throws {
        let workspace = try Workspace()
        try layOutCatalog(in: workspace)
        let phone = try KnownDevices.device("iPhone18,2")
        let report = try SliceReport.make(input: "\(workspace.input)/App/Assets.xcassets", device: phone, rasterizes: true)
        let brand = try #require(report.assets.first { $0.asset == "brand" })
        #expect(brand.action == "render" && brand.width == 54 && brand.height == 60 && brand.sha256 == nil)
        #expect(brand.reason.hasSuffix("SVG drawn at 3x"))
        let plain = try SliceReport.make(input: "\(workspace.input)/App/Assets.xcassets", device: phone)
        #expect(plain.assets.first { $0.asset == "brand" }?.action == "use")
    }

    @Test("a set with a PDF per scale slot draws each slot's own PDF, the 3x from the 2x one at 13 points, and leaves no file unused")
    func perScaleVectorsKeepTheirPointSize() async throws {
        let workspace = try Workspace()
        for file in ["Contents.json", "star.pdf", "star@2x.pdf"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.vectors)/timelineStar.imageset/\(file)")))
            try workspace.write(bytes, as: "Mac/Assets.xcassets/timelineStar.imageset/\(file)")
        }
        let outcome = try await build(workspace)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let star = try #require(manifest.assets.first { $0.name.name == "timelineStar" })
        #if PDFRasterizing
        // star.pdf is 13 pt in the 1x slot, star@2x.pdf 26 pt in the 2x slot: 13 points either way.
        #expect(star.variants.map { "\($0.scale) \($0.width)x\($0.height) \($0.source.split(separator: "/").last!)" }
            == ["1x 13x13 star.pdf", "2x 26x26 star@2x.pdf", "3x 39x39 star@2x.pdf"])
        let phone = try slice(outcome, device: "iPhone18,2")
        #expect(phone.first { $0.asset == "timelineStar" }?.action == "render")
        let rows = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/out/slices/iPhone18,2.json"))
        let reason = String(decoding: rows, as: UTF8.self)
        #expect(reason.contains("the 2x PDF drawn at 3x") && !reason.contains("not upscaled"))
        #else
        #expect(star.variants.map { "\($0.scale) \($0.format)" } == ["1x pdf", "2x pdf"])
        #endif
    }

    private func slice(_ outcome: BuildOutcome, device: String) throws -> [SliceRowView] {
        let folder = URL(fileURLWithPath: outcome.manifestPath).deletingLastPathComponent().path
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/slices/\(device).json"))
        return try JSONDecoder().decode(SliceFileView.self, from: data).assets
    }
}

/// The fields of `slices/<device>.json` these tests read.
private struct SliceFileView: Decodable {
    let assets: [SliceRowView]
}

private struct SliceRowView: Decodable {
    let asset: String
    let action: String
    let path: String?
    let vector: String?
}
