import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// An "All Sizes" iOS app icon set with its 1024 single-size entry *and* files for some slots, as
/// Xcode writes it when both are filled (issue 53, item 3): the provided files serve their slots,
/// only the other slots are downscaled from the 1024, and a slot nothing can fill is a warning,
/// never a row without a file counted in the size report.
@Suite("Mixed All Sizes app icons")
struct MixedAppIconTests {
    /// `AppIcon.appiconset`: the 1024, a 60 pt 2x file, and the 60 pt 3x slot left empty.
    private func layOut(_ workspace: Workspace) throws -> [UInt8] {
        let folder = "App/Assets.xcassets/AppIcon.appiconset"
        let provided = try AppSplitTests.png(120, seed: 7)
        try workspace.write(try AppSplitTests.png(1024, seed: 3), as: "\(folder)/Icon-1024.png")
        try workspace.write(provided, as: "\(folder)/Icon-60@2x.png")
        try workspace.write(Array("""
            {"images":[
              {"filename":"Icon-1024.png","idiom":"universal","platform":"ios","size":"1024x1024"},
              {"filename":"Icon-60@2x.png","idiom":"universal","platform":"ios","scale":"2x","size":"60x60"},
              {"idiom":"universal","platform":"ios","scale":"3x","size":"60x60"}
            ],"info":{"author":"xcode","version":1}}
            """.utf8), as: "\(folder)/Contents.json")
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "App/Assets.xcassets/Contents.json")
        return provided
    }

    /// The AppIcon rows of a device's slice: (slot size, action, path, width).
    private func iconRows(_ output: String, _ device: String) throws -> [(size: String, action: String, path: String?, width: Int?)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(output)/slices/\(device).json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rows = try #require(object["assets"] as? [[String: Any]])
        return rows.filter { ($0["asset"] as? String) == "AppIcon" }.map { row in
            ((row["traits"] as? [String: Any])?["size"] as? String ?? "-", row["action"] as? String ?? "-",
             row["path"] as? String, row["width"] as? Int)
        }
    }

    @Test("the 2x iPhone uses the set's own 60 pt file; the 3x iPhone's empty 60 pt slot and every other slot are made from the 1024; every row names a built file")
    func providedFilesServeTheirSlots() async throws {
        let workspace = try Workspace()
        let provided = try layOut(workspace)
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(
            definition: try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml"),
            inputFolder: workspace.input, outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let slot = try #require(manifest.assets.first { $0.name.name == "AppIcon~60x60" })
        #expect(slot.variants.map { "\($0.scale) \($0.width)x\($0.height) \($0.generated)" } == ["2x 120x120 false", "3x 180x180 true"])
        let twoX = try iconRows(output, "iPhone12,8")
        let sixty = twoX.filter { $0.size == "60x60" }
        #expect(sixty.map(\.action) == ["use"])
        let used = try #require(sixty.first?.path)
        #expect(FileManager.default.contents(atPath: "\(output)/\(used)") == Data(provided), "the provided file, byte for byte")
        let threeX = try iconRows(output, "iPhone18,2")
        #expect(threeX.filter { $0.size == "60x60" }.map { "\($0.action) \($0.width ?? 0)" } == ["downscale 180"])
        for device in ["iPhone12,8", "iPhone18,2", "iPad12,1"] {
            let rows = try iconRows(output, device)
            #expect(!rows.isEmpty && rows.allSatisfy { $0.path != nil }, "\(device): \(rows.map(\.size))")
        }
        #expect(!outcome.report.warnings.contains { $0.reason.contains("slot") }, "\(outcome.report.warnings.map(\.message))")
    }

    @Test("without a downscale stage the empty slots cannot be made: one warning per slot naming the scales, and no row without a file")
    func unmadeSlotsAreWarned() async throws {
        let workspace = try Workspace()
        _ = try layOut(workspace)
        let output = "\(workspace.root)/out"
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: no-downscale
            stages:
              decode:
              slice:
                devices: ["iPhone12,8", "iPhone18,2"]
              pack:
              manifest:
            """, file: "no-downscale.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let slots = outcome.report.warnings.filter { $0.reason.contains("has no file for its") }
        let sixty = try #require(slots.first { $0.reason.contains("60x60 slot at 3x and") })
        #expect(sixty.file.hasSuffix("AppIcon.appiconset/Icon-1024.png") && sixty.reason.contains("no downscale stage"))
        // 40 pt (Spotlight) is drawn at 2x and 3x: one warning names both.
        #expect(slots.contains { $0.reason.contains("40x40 slot at 2x, 3x and") })
        #expect(!slots.contains { $0.reason.contains("60x60 slot at 2x") }, "the provided 2x file fills it")
        for device in ["iPhone12,8", "iPhone18,2"] {
            let rows = try iconRows(output, device)
            #expect(rows.allSatisfy { $0.path != nil }, "\(device)")
        }
        #expect(try iconRows(output, "iPhone12,8").map(\.size) == ["60x60"])
    }
}
