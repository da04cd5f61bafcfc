import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// A pipeline's targets map parts of the input to their own device classes (issue 26, item 6):
/// the widget extension's assets go to the devices its target names, never to the app's.
@Suite("Targets")
struct TargetBuildTests {
    private static let fixture = "\(Workspace.packageRoot)/Tests/Fixtures/catalogs/ThinningApp"

    private func pipeline(_ targets: String, slice: String = "[]") -> String {
        """
        version: 1
        name: targets
        targets:
        \(targets)
        stages:
          decode:
          rasterize:
          downscale:
          slice:
            devices: \(slice)
          pack:
            untagged: pack
          manifest:
        """
    }

    @Test("each target's assets are sliced and packed only for its own devices")
    func targetsKeepTheirAssets() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.parse(pipeline("""
          - name: App
            input: App/Assets.xcassets
            devices: ["iPhone18,2"]
          - name: Widgets
            input: Widgets/
            devices: ["iPad17,1"]
        """), file: "targets.yml")
        #expect(definition.targets.map(\.inputs) == [["App/Assets.xcassets"], ["Widgets"]])
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: Self.fixture,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.deviceClasses.map(\.id) == ["iPhone18,2", "iPad17,1"])
        func assets(_ device: String) throws -> Set<String> {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/out/slices/\(device).json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return Set((object["assets"] as? [[String: Any]] ?? []).compactMap { $0["asset"] as? String })
        }
        let phone = try assets("iPhone18,2"), pad = try assets("iPad17,1")
        #expect(!phone.isEmpty && phone.allSatisfy { $0.hasPrefix("App/") })
        #expect(pad == ["Widgets/AppIcon"])
        // The packed bytes follow: no widget file in the phone's bundles, no app file in the iPad's.
        let phoneEntries = manifest.bundles.filter { $0.device == "iPhone18,2" }.flatMap(\.entries)
        let padEntries = manifest.bundles.filter { $0.device == "iPad17,1" }.flatMap(\.entries)
        #expect(!phoneEntries.contains { $0.contains("Widgets/") } && padEntries.allSatisfy { $0.contains("Widgets/") })
    }

    @Test("on a real app (food-truck: app, widgets, kit), the widget target's assets reach only the devices it names")
    func realAppTargets() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.parse(pipeline("""
          - name: App
            input: App
            devices: ["iPhone18,2"]
          - name: Widgets
            input: Widgets
            devices: ["iPad17,1"]
        """, slice: #"["iPhone12,8"]"#), file: "targets.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition,
                                                                inputFolder: "\(Workspace.corpus)/xcassets/food-truck",
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        func entries(_ device: String) -> [String] { manifest.bundles.filter { $0.device == device }.flatMap(\.entries) }
        // The kit's catalog is in no target: it goes to the slice stage's own device.
        #expect(entries("iPhone18,2").contains { $0.contains("/App/") } && !entries("iPhone18,2").contains { $0.contains("Widgets/") })
        #expect(entries("iPad17,1").contains { $0.contains("Widgets/") } && !entries("iPad17,1").contains { $0.contains("/App/") })
        #expect(entries("iPhone12,8").contains { $0.contains("FoodTruckKit/") })
        #expect(!entries("iPhone12,8").contains { $0.contains("/App/") || $0.contains("Widgets/") })
    }

    @Test("a target's assets are made at no larger scale than its devices draw: a 2x-only target gets no 3x and no warning about it")
    func targetScaleCeiling() async throws {
        let workspace = try Workspace()
        let single = try PipelineFileReader.parse(pipeline("", slice: #"["iPhone18,2"]"#).replacingOccurrences(of: "targets:\n\n", with: ""),
                                                  file: "plain.yml")
        let plain = try await PipelineRunner.run(BuildRequest(definition: single, inputFolder: Self.fixture,
                                                              outputFolder: "\(workspace.root)/plain"))
        // The fixture's arrow has no 3x: a 3x phone takes the 2x, and (as Xcode) no warning says so.
        #expect(!plain.report.warnings.contains { $0.reason.hasPrefix("no 3x variant") })
        let plainManifest = try ManifestWriter.read(from: plain.manifestPath)
        #expect(plainManifest.assets.first { $0.name.name == "App/Arrow~ltr" }.map { $0.variants.map(\.scale) } == [.x1, .x2])
        let definition = try PipelineFileReader.parse(pipeline("""
          - name: App
            input: App
            devices: ["iPad17,1", "Mac16,12"]
        """), file: "targets.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: Self.fixture,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(!outcome.report.warnings.contains { $0.reason.hasPrefix("no 3x variant") })
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(!manifest.assets.filter { $0.name.name.hasPrefix("App/") }.flatMap(\.variants).contains { $0.scale == .x3 })
    }

    @Test("a target whose input holds nothing is a warning; a target outside the input, or two with one input, an error naming the line")
    func badTargetsAreNamed() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.parse(pipeline("""
          - name: Watch
            input: WatchApp/Assets.xcassets
            devices: ["Watch7,2"]
        """, slice: #"["iPhone18,2"]"#), file: "targets.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: Self.fixture,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.report.warnings.map(\.reason).contains("target 'Watch' holds no asset (is its input right?)"))
        let outside = #expect(throws: TesseraError.self) {
            try PipelineFileReader.parse(pipeline("""
              - name: Up
                input: ../elsewhere
                devices: ["Watch7,2"]
            """), file: "targets.yml")
        }
        #expect(outside?.description.hasPrefix("targets.yml:5:12: ") == true, "\(String(describing: outside))")
        #expect(outside?.reason.contains("not a relative path inside the input folder") == true)
        let twice = #expect(throws: TesseraError.self) {
            try PipelineFileReader.parse(pipeline("""
              - {name: A, input: App, devices: ["iPhone18,2"]}
              - {name: A, input: Widgets, devices: ["iPad17,1"]}
            """), file: "targets.yml")
        }
        #expect(twice?.reason.contains("repeats another target's name") == true)
        let listedTwice = #expect(throws: TesseraError.self) {
            try PipelineFileReader.parse(pipeline("""
              - {name: A, input: [App, App/], devices: ["iPhone18,2"]}
            """), file: "targets.yml")
        }
        #expect(listedTwice?.reason.contains("'App' is listed twice") == true, "\(String(describing: listedTwice))")
    }

    @Test("a device older than the app's deployment target gets none of its assets, and the build names it; a newer one is unaffected")
    func deploymentTargetLeavesOutOldDevices() async throws {
        func run(_ target: String) async throws -> (BuildOutcome, [String: Int], Workspace) {
            let workspace = try Workspace()
            let definition = try PipelineFileReader.parse("""
                version: 1
                name: deployment
                app:
                  deployment-target: \(target)
                stages:
                  decode:
                  downscale:
                  slice:
                    devices: ["iPhone10,1", "iPhone18,2", "Mac16,12"]
                  manifest:
                """, file: "deployment.yml")
            let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: Self.fixture,
                                                                    outputFolder: "\(workspace.root)/out"))
            var counts: [String: Int] = [:]
            for device in ["iPhone10,1", "iPhone18,2", "Mac16,12"] {
                let data = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/out/slices/\(device).json"))
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                counts[device] = (object["assets"] as? [[String: Any]] ?? []).count
            }
            return (outcome, counts, workspace)
        }
        // iPhone 8 stops at iOS 16: an iOS 17 app is not for it.
        let (outcome, counts, _) = try await run("{ios: \"17.0\"}")
        #expect(outcome.exitStatus == 0)
        #expect(counts["iPhone10,1"] == 0 && counts["iPhone18,2"]! > 0 && counts["Mac16,12"]! > 0, "\(counts)")
        #expect(outcome.report.warnings.map(\.message)
            .contains { $0.hasSuffix("iPhone10,1 (iPhone 8) runs iOS 16 at most, older than the app's deployment target (iOS 17): it gets none of its assets") })
        // iOS 16.4 is met by iOS 16's last release; one version for every platform also works.
        let (_, admitted, _) = try await run("\"16.4\"")
        #expect(admitted["iPhone10,1"]! > 0, "\(admitted)")
    }

    @Test("deployment-target refuses what is not a version or names no Apple platform, naming the key")
    func deploymentTargetRefusals() {
        for (value, says) in [("banana", "'banana' is not an OS version"), ("{android: 24}", "unknown key"), ("\"16.x\"", "not an OS version")] {
            let error = #expect(throws: TesseraError.self) {
                try PipelineFileReader.parse("version: 1\nname: d\napp:\n  deployment-target: \(value)\nstages:\n  decode:\n  manifest:\n", file: "d.yml")
            }
            #expect(error?.reason.contains(says) == true && error?.reason.contains("deployment-target") == true, "\(String(describing: error))")
        }
    }

    @Test("an empty set in a target's own catalog is that target's (the reader's one warning), never also 'in no target'")
    func emptySetBelongsToItsTarget() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.parse(pipeline("""
          - name: App
            input: App
            devices: ["iPhone18,2"]
          - name: Widgets
            input: Widgets
            devices: ["iPad17,1"]
          - name: Kit
            input: FoodTruckKit
            devices: ["iPhone18,2"]
        """), file: "targets.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition,
                                                                inputFolder: "\(Workspace.corpus)/xcassets/food-truck",
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0)
        let messages = outcome.report.warnings.map(\.message)
        #expect(messages.contains { $0.contains("names no image file") }, "\(messages)")
        #expect(!messages.contains { $0.contains("in no target") }, "\(messages)")
    }
}
