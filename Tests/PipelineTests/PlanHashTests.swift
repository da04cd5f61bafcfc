import Foundation
import TestServers
import TestSupport
import Testing
import TesseraCore

/// The hash that ties a build's shards to its merge must be the same in every process: Swift
/// seeds dictionary and set order per process, so a definition printed with `String(reflecting:)`
/// (Play's device groups, a deployment target per platform, a device family) hashed differently
/// on each runner, and the merge refused shards of the very same build.
@Suite("Plan hash across processes")
struct PlanHashTests {
    static let pipeline = """
        version: 1
        name: groups
        app:
          device-family: [iphone, ipad, watch, tv]
          deployment-target: {ios: "16.0", watchos: "9.0", tvos: "16.0", macos: "13.0"}
        stages:
          decode:
          slice:
            devices: ["android-mdpi", "android-hdpi", "android-xhdpi", "android-xxhdpi", "android-xxxhdpi"]
          pack:
            play-device-groups: [low=android-mdpi+android-hdpi, mid=android-xhdpi, high=android-xxhdpi, top=android-xxxhdpi]
          report:
            max-tag: [Star=1MB, Moon=2MB, Sun=3MB]
          manifest:

        """

    @Test("shards run as separate processes agree on the plan hash of a definition holding dictionaries and sets")
    func planHashIsTheSameInEveryProcess() async throws {
        let workspace = try Workspace()
        let file = "\(workspace.root)/groups.yml"
        try Self.pipeline.write(toFile: file, atomically: true, encoding: .utf8)
        var hashes: Set<String> = []
        for run in 1...3 {
            let output = "\(workspace.root)/out-\(run)"
            let result = try await TesseraProcess.run(["run", file, "--input", "\(Workspace.packageRoot)/Samples", "--output", output,
                                                 "--shard", "1/2", "--progress", "quiet"])
            #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
            let partial = try #require(FileManager.default.contents(atPath: "\(output)/shard-1-of-2.json"), "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: partial) as? [String: Any])
            hashes.insert(try #require(object["planHash"] as? String))
        }
        #expect(hashes.count == 1, "three processes, \(hashes.count) plan hashes")
    }

    @Test("every job key is the same in another process: a second build of Samples into another folder, with the first's cache, misses nothing but its plan record")
    func jobKeysAreTheSameInEveryProcess() async throws {
        let workspace = try Workspace()
        let cache = "\(workspace.root)/cache"
        for output in ["a", "b"] {
            let result = try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/samples.yml", "--input",
                                                 "\(Workspace.packageRoot)/Samples", "--output", "\(workspace.root)/\(output)",
                                                 "--cache", cache, "--progress", "quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let report = try #require(FileManager.default.contents(atPath: "\(workspace.root)/b/report.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        let counts = try #require(object["cache"] as? [String: [String: Int]])
        let missed = counts.filter { $0.key != "plan" && ($0.value["misses"] ?? 0) > 0 }
        #expect(missed.isEmpty, "missed in the second process: \(missed)")
        #expect((counts["write"]?["hits"] ?? 0) > 0)
    }
}
