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
    @Test("a 41 mm watch gets its 92 px home-screen icon, 55 px notification icon, 196 px short look and 58 px settings icon; an iPhone none of them")
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
        let watch = try #require(manifest.bundles.first { $0.device == "Watch7,1" })
        let shipped = watch.entries.filter { $0.hasPrefix("assets/") }.map { entry in
            sizes["variants/" + entry.dropFirst("assets/".count)] ?? "?"
        }.sorted { Int($0)! < Int($1)! }
        #expect(shipped == ["55", "58", "92", "196"])
        #expect(!watch.entries.contains { $0.contains("1024") })
        let phone = manifest.bundles.filter { $0.device == "iPhone18,2" }.flatMap(\.entries)
        #expect(!phone.contains { $0.contains("AppIcon") })
    }
}
