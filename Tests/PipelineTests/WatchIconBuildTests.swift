import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// A single-size watchOS icon is made into each watch's slots, as Xcode makes them, and reaches
/// watches only (issue 26, item 3).
@Suite("Watch app icons in a build")
struct WatchIconBuildTests {
    @Test("a 41 mm watch gets its 92 px home-screen icon, 55 px notification icon, 196 px short look and 58 px settings icon, kept in the app; an iPhone none of them")
    func watchSlotsAreMade() async throws {
        let workspace = try Workspace()
        // food-truck's own 1024 px icon (the corpus), as a watch app's single-size icon.
        try workspace.add("xcassets/food-truck/App/Assets.xcassets/AppIcon.appiconset/FoodTruckIcon.png",
                          as: "Watch/Assets.xcassets/AppIcon.appiconset/icon.png")
        try workspace.write(Array(#"{"images":[{"filename":"icon.png","idiom":"universal","platform":"watchos","size":"1024x1024"}],"info":{"author":"xcode","version":1}}"#.utf8),
                            as: "Watch/Assets.xcassets/AppIcon.appiconset/Contents.json")
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: watch
            stages:
              decode:
              downscale:
              slice:
                devices: ["Watch7,1", "iPhone18,2"]
              pack:
              manifest:
            """, file: "watch.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let sizes = Dictionary(manifest.assets.flatMap { asset in asset.variants.map { ($0.path, "\($0.width)") } }) { a, _ in a }
        // The icon stays in the watch app: its slice lists the slots, no bundle holds them, and
        // the catalog Xcode compiles is under app/.
        let slice = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/out/slices/Watch7,1.json"))) as? [String: Any]
        let rows = try #require(slice?["assets"] as? [[String: Any]])
        let shipped = rows.compactMap { row -> String? in
            guard row["inApp"] != nil, let path = row["path"] as? String else { return nil }
            return sizes[path]
        }.sorted { Int($0)! < Int($1)! }
        #expect(shipped == ["55", "58", "92", "196"])
        #expect(!manifest.bundles.flatMap(\.entries).contains { $0.contains("AppIcon") })
        #expect(manifest.app?.map(\.path) == ["app/Watch/Assets.xcassets/AppIcon.appiconset/Contents.json",
                                              "app/Watch/Assets.xcassets/AppIcon.appiconset/icon.png"])
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/out/app/Watch/Assets.xcassets/AppIcon.appiconset/icon.png"))
        let phone = manifest.bundles.filter { $0.device == "iPhone18,2" }.flatMap(\.entries)
        #expect(!phone.contains { $0.contains("AppIcon") })
    }
}
