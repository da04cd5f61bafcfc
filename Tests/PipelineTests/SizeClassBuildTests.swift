import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// `width-class` and `height-class` entries are kept as traits and all ship to the devices of
/// their idiom (issue 26, item 4): they were dropped behind a "1x is provided twice" warning.
@Suite("Size classes in a build")
struct SizeClassBuildTests {
    /// A set as Xcode writes it when "Width: Any & Compact" is ticked in the attributes inspector,
    /// over real PNGs from the corpus (pngsuite, 32 × 32).
    private func layOut(in workspace: Workspace) throws {
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "Assets.xcassets/Contents.json")
        try workspace.add("png/pngsuite/basn6a08.png", as: "Assets.xcassets/banner.imageset/banner-any.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "Assets.xcassets/banner.imageset/banner-compact.png")
        try workspace.add("png/pngsuite/basn0g08.png", as: "Assets.xcassets/banner.imageset/banner-compact-height.png")
        let contents = """
        {
          "images" : [
            { "filename" : "banner-any.png", "idiom" : "universal", "scale" : "2x" },
            { "filename" : "banner-compact.png", "idiom" : "universal", "scale" : "2x", "width-class" : "compact" },
            { "filename" : "banner-compact-height.png", "height-class" : "compact", "idiom" : "universal", "scale" : "2x" }
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }
        """
        try workspace.write(Array(contents.utf8), as: "Assets.xcassets/banner.imageset/Contents.json")
    }

    @Test("each size-class entry becomes its own variant group, ships to the phone, and warns about nothing")
    func sizeClassesAreKeptAndShipped() async throws {
        let workspace = try Workspace()
        try layOut(in: workspace)
        var definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        // Untagged sets in the base pack: these tests pin what packs hold.
        definition.pack?.untagged = .pack
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0)
        #expect(!outcome.report.warnings.contains { $0.reason.contains("provided twice") })
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.assets.map(\.name.name) == ["banner", "banner~hcompact", "banner~wcompact"])
        // A 2x phone ships all three, each record naming its size class.
        let bundle = try #require(manifest.bundles.first { $0.device == "iPhone12,8" })
        let file = try BundleFile(path: "\(workspace.root)/out/\(bundle.path)")
        let traits = try file.index.entries.filter { $0.name.hasPrefix("assets/banner") }
            .map { "\($0.name) \(try file.traits(of: $0))" }
        #expect(traits == [
            "assets/banner@2x.png appearance=any;idiom=universal;scale=2x",
            "assets/banner~hcompact@2x.png appearance=any;height-class=compact;idiom=universal;scale=2x",
            "assets/banner~wcompact@2x.png appearance=any;idiom=universal;scale=2x;width-class=compact",
        ])
    }
}
