import Foundation
import Testing
import TestServers

/// Issue 51, item 3: a warm remote cache restores every job of a fresh checkout, every time, when
/// many jobs' results are the same bytes. Twenty alternate icons drawn from one image restored
/// 0, 1, 0 misses in three identical runs: a blob the run brought into its store moved into the
/// first output that took it, and a job restoring the same bytes in between found it neither in
/// the store nor (yet) in that output, and a result pack's small blobs have no copy of their own
/// on the server to fall back to. The real `tessera` binary runs each checkout in a process of
/// its own, from a fresh copy of the catalog and an empty local cache, as CI runners do.
@Suite("Results that share bytes, restored from a warm remote cache", .serialized)
struct SharedBlobsTests {
    private static let root = CacheWorkspace.packageRoot
    /// App icon sets, each a copy of one single-size 1024 px icon (every slot's variant is made
    /// by as many jobs), and image sets each holding one same 3x master.
    private static let iconSets = 12
    private static let imageSets = 8
    /// Fresh checkouts restored after the warm build.
    private static let restores = 10

    /// The catalog (kept aside, copied afresh for each checkout) and the pipeline: app thinning
    /// with every icon set an alternate app icon, so the icons' copies in `app/` share bytes too.
    private func layOut(_ workspace: CacheWorkspace) throws -> (catalog: String, pipeline: String) {
        let catalog = "\(workspace.root)/catalog/App.xcassets"
        let manager = FileManager.default
        try manager.createDirectory(atPath: catalog, withIntermediateDirectories: true)
        try Data(#"{"info":{"version":1,"author":"xcode"}}"#.utf8).write(to: URL(fileURLWithPath: "\(catalog)/Contents.json"))
        let icon = "\(CacheWorkspace.corpus)/xcassets/food-truck/App/Assets.xcassets/AppIcon.appiconset/FoodTruckIcon.png"
        for index in 0..<Self.iconSets {
            let set = "\(catalog)/AppIcon\(index == 0 ? "" : "-Alt\(index)").appiconset"
            try manager.createDirectory(atPath: set, withIntermediateDirectories: true)
            try manager.copyItem(atPath: icon, toPath: "\(set)/Icon.png")
            try Data(#"{"images":[{"filename":"Icon.png","idiom":"universal","platform":"ios","size":"1024x1024"}],"info":{"version":1,"author":"xcode"}}"#.utf8)
                .write(to: URL(fileURLWithPath: "\(set)/Contents.json"))
        }
        for index in 1...Self.imageSets {
            let set = "\(catalog)/Same\(index).imageset"
            try manager.createDirectory(atPath: set, withIntermediateDirectories: true)
            try manager.copyItem(atPath: "\(CacheWorkspace.corpus)/png/pngsuite/basn6a08.png", toPath: "\(set)/same@3x.png")
            try Data(#"{"images":[{"idiom":"universal","scale":"1x"},{"idiom":"universal","scale":"2x"},{"filename":"same@3x.png","idiom":"universal","scale":"3x"}],"info":{"version":1,"author":"xcode"}}"#.utf8)
                .write(to: URL(fileURLWithPath: "\(set)/Contents.json"))
        }
        let pipeline = "\(workspace.root)/pipeline.yml"
        let thinning = try String(contentsOfFile: "\(Self.root)/Pipelines/app-thinning.yml", encoding: .utf8)
        try (thinning + "app:\n  include-all-app-icons: true\n").write(toFile: pipeline, atomically: true, encoding: .utf8)
        return ("\(workspace.root)/catalog", pipeline)
    }

    /// A fresh checkout at the same place (as a CI runner's), built by `tessera run` into an empty
    /// output folder with an empty local cache; the exit status, stderr and the report's cache
    /// counts by stage.
    private func checkOutAndBuild(_ workspace: CacheWorkspace, _ setting: (catalog: String, pipeline: String), remote: String,
                                  cache: String) throws -> (status: Int32, stderr: String, counts: [String: [String: Int]]) {
        let checkout = "\(workspace.root)/checkout", output = "\(workspace.root)/output"
        try? FileManager.default.removeItem(atPath: checkout)
        try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.copyItem(atPath: setting.catalog, toPath: checkout)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["300", TesseraProcess.executable, "run", setting.pipeline, "--input", checkout, "--output", output,
                             "--cache", cache, "--remote-cache", remote, "--progress", "quiet"]
        let errors = "\(workspace.root)/stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let report = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(output)/report.json"))) as? [String: Any]
        return (process.terminationStatus, stderr, report?["cache"] as? [String: [String: Int]] ?? [:])
    }

    /// Fills the server from one build, then restores `restores` fresh checkouts from it: every
    /// job a hit in each (no stage misses any), every output byte-identical to the build's.
    private func restoresEveryJobEveryTime(remote: String) throws {
        let workspace = try CacheWorkspace()
        let setting = try layOut(workspace)
        let warm = try checkOutAndBuild(workspace, setting, remote: remote, cache: "\(workspace.root)/cache-warm")
        try #require(warm.status == 0 && !warm.stderr.contains("remote cache:"), "\(warm.stderr)")
        let jobs = warm.counts.values.reduce(0) { $0 + ($1["misses"] ?? 0) }
        // Dozens of jobs, most of them with the same bytes as others (slots × icon sets).
        #expect(jobs > 100, "\(warm.counts)")
        let reference = workspace.outputs("\(workspace.root)/output")
        var misses: [Int] = []
        for run in 1...Self.restores {
            let cache = "\(workspace.root)/cache-\(run)"
            let restore = try checkOutAndBuild(workspace, setting, remote: remote, cache: cache)
            try? FileManager.default.removeItem(atPath: cache)
            #expect(restore.status == 0 && !restore.stderr.contains("remote cache:"), "run \(run): \(restore.stderr)")
            let missed = restore.counts.filter { ($0.value["misses"] ?? 0) > 0 }
            misses.append(missed.values.reduce(0) { $0 + ($1["misses"] ?? 0) })
            #expect(missed.isEmpty, "run \(run) missed: \(missed)")
            #expect(restore.counts.values.reduce(0) { $0 + ($1["hits"] ?? 0) } == jobs, "run \(run): \(restore.counts)")
            #expect(workspace.outputs("\(workspace.root)/output") == reference, "run \(run): outputs differ from the build's")
        }
        #expect(misses == Array(repeating: 0, count: Self.restores), "misses by run: \(misses)")
    }

    @Test("over HTTP (nginx WebDAV), with result packs: ten fresh checkouts, each in its own process, restore every job, byte-identical")
    func overHTTP() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shared-blobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: store) }
        let server = try NginxServer(serving: store, webDAV: true)
        defer { server.stop() }
        try restoresEveryJobEveryTime(remote: server.baseURL.appendingPathComponent("cache").absoluteString)
    }

    @Test("over gRPC (buildbox-casd), with result packs: ten fresh checkouts, each in its own process, restore every job, byte-identical")
    func overGRPC() async throws {
        let casd = try CASDServer()
        defer { casd.stop() }
        try restoresEveryJobEveryTime(remote: casd.url)
    }
}
