import Delivery
import Foundation
import Manifests
@testable import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Xcode's image slicing end to end (issue 53 item 2): a sliced set in a pack keeps its slicing in
/// the manifest and the slice rows; a sliced set that stays in the app keeps `resizing` in the
/// Contents.json written for Xcode, on the scales it listed and on those Tessera made.
@Suite("Image slicing through a build")
struct ResizingBuildTests {
    /// A chat bubble's slicing as Xcode's editor writes it, in each image's pixels: the 2x and the
    /// 3x insets of one 8 × 13.5–14 pt border, a 1-pixel centre at both scales.
    static var bubble: [String: Any] { [
        "mode": "9-part",
        "center": ["mode": "tile", "width": 1, "height": 1],
        "cap-insets": ["top": 16, "left": 27, "bottom": 16, "right": 28],
    ] }
    static var bubble3x: [String: Any] { [
        "mode": "9-part",
        "center": ["mode": "tile", "width": 1, "height": 1],
        "cap-insets": ["top": 24, "left": 41, "bottom": 24, "right": 42],
    ] }
    static var bar: [String: Any] { [
        "mode": "3-part-horizontal",
        "center": ["mode": "stretch", "width": 2],
        "cap-insets": ["left": 10, "right": 10],
    ] }

    private static func imageSet(_ name: String, in workspace: Workspace, images: [[String: Any]], tags: [String] = []) throws {
        var document: [String: Any] = ["images": images, "info": ["author": "xcode", "version": 1]]
        if !tags.isEmpty { document["properties"] = ["on-demand-resource-tags": tags] }
        try workspace.write(Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])),
                            as: "App/Assets.xcassets/\(name).imageset/Contents.json")
        for case let file as String in images.map({ $0["filename"] }) {
            try workspace.write(try AppSplitTests.png(file.contains("@3x") ? 96 : 64, seed: file.count),
                                as: "App/Assets.xcassets/\(name).imageset/\(file)")
        }
    }

    private static let pipeline = """
        version: 1
        name: slicing
        stages:
          decode:
          downscale:
          slice:
            devices: ["iPhone15,2", "iPhone12,1"]
          pack:
          manifest:
        """

    @Test("an in-app set whose scales are sliced differently keeps each scale's resizing as written, one entry per scale; a scale made anew takes the first, in its own pixels")
    func appCatalogKeepsEachScalesSlicing() throws {
        var wider = Self.bubble
        wider["cap-insets"] = ["top": 16, "left": 30, "bottom": 16, "right": 30]
        let original: [String: Any] = ["images": [
            ["idiom": "universal", "scale": "1x"],
            ["filename": "B@2x.png", "idiom": "universal", "scale": "2x", "resizing": Self.bubble],
            ["filename": "B@3x.png", "idiom": "universal", "scale": "3x", "resizing": wider],
        ], "info": ["author": "xcode", "version": 1]]
        let hash = ContentHash.of(Array("b".utf8))
        func variant(_ scale: DisplayScale, _ name: String) -> VariantEntry {
            VariantEntry(scale: scale, path: "app/A.xcassets/B.imageset/\(name)", format: .png, width: 8, height: 8, bytes: 1,
                         sha256: hash, generated: scale == .x1, source: "A.xcassets/B.imageset/B@3x.png")
        }
        let rewritten = try AppCatalogContents.rewrite(
            Array(try JSONSerialization.data(withJSONObject: original)), file: "A.xcassets/B.imageset/Contents.json",
            groups: ["B@2x.png": "B", "B@3x.png": "B"],
            variants: ["B": [.x1: variant(.x1, "B.png"), .x2: variant(.x2, "B@2x.png"), .x3: variant(.x3, "B@3x.png")]])
        let images = try #require((try JSONSerialization.jsonObject(with: Data(rewritten.contents)) as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.map { $0["scale"] as? String } == ["1x", "2x", "3x"])
        #expect(images.map { $0["filename"] as? String } == ["B.png", "B@2x.png", "B@3x.png"])
        var atOneX = Self.bubble
        atOneX["cap-insets"] = ["top": 8, "left": 14, "bottom": 8, "right": 14]  // the 2x's, halved to whole pixels
        #expect(images.map { $0["resizing"] as? NSDictionary } == [atOneX as NSDictionary, Self.bubble as NSDictionary, wider as NSDictionary])
    }

    @Test("manifest, slice rows and the in-app Contents.json carry the slicing; an unsliced set has none")
    func endToEnd() async throws {
        let workspace = try Workspace()
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "App/Assets.xcassets/Contents.json")
        // Tagged: a pack. The 2x and 3x are sliced alike, the 1x slot is empty (made by downscaling).
        try Self.imageSet("Bubble", in: workspace, images: [
            ["idiom": "universal", "scale": "1x"],
            ["filename": "Bubble@2x.png", "idiom": "universal", "scale": "2x", "resizing": Self.bubble],
            ["filename": "Bubble@3x.png", "idiom": "universal", "scale": "3x", "resizing": Self.bubble3x],
        ], tags: ["chat"])
        try Self.imageSet("Plain", in: workspace, images: [["filename": "Plain@3x.png", "idiom": "universal", "scale": "3x"]],
                          tags: ["chat"])
        // Untagged: stays in the app; only its 3x is listed (and sliced), the 1x and 2x slots empty.
        try Self.imageSet("Bar", in: workspace, images: [
            ["idiom": "universal", "scale": "1x"], ["idiom": "universal", "scale": "2x"],
            ["filename": "Bar@3x.png", "idiom": "universal", "scale": "3x", "resizing": Self.bar],
        ])
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: try PipelineFileReader.parse(Self.pipeline, file: "s.yml"),
                                                                inputFolder: workspace.input, outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        #expect(!outcome.report.warnings.contains { $0.message.contains("resizing") }, "\(outcome.report.warnings.map(\.message))")

        // The manifest, as bytes: the asset's slicing in points (its largest scale's, the 3x's pixels
        // over 3), nothing for the unsliced set.
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: outcome.manifestPath))
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let expected = ImageResizing(mode: .ninePart, center: .init(mode: .tile, width: 1.0 / 3, height: 1.0 / 3),
                                     capInsets: .init(top: 8, left: 41.0 / 3, bottom: 8, right: 14))
        #expect(manifest.assets.first { $0.name.name == "Bubble" }?.resizing == expected)
        #expect(manifest.assets.first { $0.name.name == "Plain" }.map { $0.resizing == nil } == true)
        let object = try JSONSerialization.jsonObject(with: manifestData) as? [String: Any]
        let assets = try #require(object?["assets"] as? [[String: Any]])
        let bubble = try #require(assets.first { $0["name"] as? String == "Bubble" }?["resizing"] as? [String: Any])
        #expect(bubble["capInsets"] as? [String: Double] == ["top": 8, "left": 41.0 / 3, "bottom": 8, "right": 14])
        #expect(assets.first { $0["name"] as? String == "Plain" }?["resizing"] == nil)
        let schema = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(Workspace.packageRoot)/docs/manifest.schema.json"))) as? [String: Any])
        var problems: [String] = []
        SchemaChecker(root: schema).check(object as Any, against: schema, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems)")

        // The slice rows of both devices: every Bubble row (the 1x's made by downscaling too) has it.
        for device in ["iPhone15,2", "iPhone12,1"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(output)/slices/\(device).json"))
            let rows = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["assets"] as? [[String: Any]])
            let bubbleRows = rows.filter { $0["asset"] as? String == "Bubble" }
            #expect(!bubbleRows.isEmpty)
            for row in bubbleRows {
                let resizing = (row["presentation"] as? [String: Any])?["resizing"] as? [String: Any]
                #expect(resizing?["mode"] as? String == "9-part", "\(device): \(row)")
                #expect((resizing?["center"] as? [String: Any])?["mode"] as? String == "tile")
            }
            #expect(rows.filter { $0["asset"] as? String == "Plain" }.allSatisfy { $0["presentation"] == nil })
        }

        // The bundle records say it too (`tessera bundle ls`' last column), for a bundle read without its manifest.
        let bundle = try #require(manifest.bundles.first { $0.device == "iPhone15,2" && $0.entries.contains { $0.contains("Bubble") } })
        let list = try await TesseraProcess.run(["bundle", "ls", "\(output)/\(bundle.path)"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n")
        let bubbleLine = try #require(lines.first { $0.contains("Bubble") })
        #expect(bubbleLine.split(separator: "\t").last == "appearance=any;idiom=universal;resizing=9-part/tile/8,13.67,8,14;scale=3x")
        #expect(lines.filter { $0.contains("Plain") }.allSatisfy { !$0.contains("resizing") })

        // The in-app set written for Xcode: every scale; the 3x's `resizing` as the source wrote it, the
        // 1x and 2x made from it with its insets in their own pixels.
        let written = try Data(contentsOf: URL(fileURLWithPath: "\(output)/app/App/Assets.xcassets/Bar.imageset/Contents.json"))
        let images = try #require((try JSONSerialization.jsonObject(with: written) as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.map { $0["scale"] as? String } == ["1x", "2x", "3x"])
        #expect(images.allSatisfy { $0["filename"] is String })
        for (image, insets) in zip(images, [["left": 3, "right": 3], ["left": 7, "right": 7], ["left": 10, "right": 10]]) {
            var expected = Self.bar
            expected["cap-insets"] = insets
            #expect((image["resizing"] as? NSDictionary) == (expected as NSDictionary), "\(image)")
        }
    }
}
