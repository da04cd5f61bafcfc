import Delivery
import Foundation
import JobEngine
import Manifests
import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

/// What devices update by (`docs/updates.md`): every bundle entry as `objects/<sha256>`, the
/// manifest compressed, and patches from the builds before (`--against`).
@Suite("Objects and manifest patches")
struct UpdateFilesTests {
    private func build(_ workspace: Workspace, output: String, previous: String? = nil,
                       scheduler: SchedulerOptions = SchedulerOptions()) async throws -> BuildOutcome {
        var definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        definition.pack?.untagged = .pack
        // Every asset gets a ready bitmap, whose object travels as xz.
        definition.decompress = DecompressStageOptions()
        var request = BuildRequest(definition: definition, inputFolder: workspace.input, outputFolder: output,
                                   scheduler: scheduler)
        request.previous = try previous.map { location throws(TesseraError) in try PreviousManifests.load(location) }
        return try await PipelineRunner.run(request)
    }

    private func layOut(_ workspace: Workspace) throws {
        try workspace.add("xcassets/tutsplus-odr/Assets.xcassets", as: "Assets.xcassets")
    }

    /// One image replaced by pixels no other set has: the one change of a build.
    private func changeOneImage(_ workspace: Workspace) throws {
        let star = "\(workspace.input)/Assets.xcassets/Red Star.imageset/Red Star.png"
        try FileManager.default.removeItem(atPath: star)
        try FileManager.default.copyItem(
            atPath: "\(Workspace.corpus)/xcassets/food-truck/Widgets/Assets.xcassets/IslandCompactIcon.imageset/Food Truck Compact@3x.png",
            toPath: star)
    }

    @Test("every bundle entry is an object named by the SHA-256 of its decoded bytes, listed once with its encoding and size; byte-identical across runs")
    func objects() async throws {
        let workspace = try Workspace()
        try layOut(workspace)
        let first = try await build(workspace, output: "\(workspace.root)/a", scheduler: SchedulerOptions(maxConcurrentJobs: 1))
        #expect(first.exitStatus == 0)
        _ = try await build(workspace, output: "\(workspace.root)/b",
                            scheduler: SchedulerOptions(maxConcurrentJobs: 2, tieBreak: .shuffled(seed: 3)))
        let a = try workspace.reproducibleFiles(under: "\(workspace.root)/a")
        let b = try workspace.reproducibleFiles(under: "\(workspace.root)/b")
        #expect(a == b)

        let manifest = try ManifestWriter.read(from: first.manifestPath)
        #expect(manifest.minorVersion == Manifest.currentMinorVersion)
        let objects = try #require(manifest.objects)
        #expect(objects.map(\.sha256) == objects.map(\.sha256).sorted())
        #expect(Set(a.keys.filter { $0.hasPrefix("objects/") }) == Set(objects.map(\.path)))
        for object in objects {
            let stored = try #require(a[object.path])
            #expect(stored.count == object.transferBytes)
            let decoded = object.encoding == .xz ? try XZ.decompress([UInt8](stored), expectedSize: object.bytes) : [UInt8](stored)
            #expect(decoded.count == object.bytes)
            #expect(ContentHash.of(decoded) == object.sha256, "\(object.path)")
        }
        // Every entry of every bundle has its object; ready bitmaps travel as xz, PNGs as they are.
        let entryObjects = BundleEntryObjects(manifest)
        for bundle in manifest.bundles {
            let file = try BundleFile(path: "\(workspace.root)/a/\(bundle.path)")
            for entry in file.index.entries {
                let object = try #require(entryObjects[entry: entry.name], "\(entry.name)")
                #expect(object.sha256 == entry.sha256)
                #expect(object.encoding == (entry.kind == .readyBitmap || entry.compression == .xz ? .xz : .identity), "\(entry.name)")
            }
        }
        #expect(objects.contains { $0.encoding == .xz } && objects.contains { $0.encoding == .identity })
        // Without --against: the whole manifest compressed and an index with no patches.
        let manifestBytes = [UInt8](try #require(a["manifest.json"]))
        let index = try UpdateIndex.decode(try #require(a[UpdateIndex.fileName]), source: "updates.json")
        #expect(index.manifest == ManifestReference(of: manifestBytes) && index.patches.isEmpty)
        let xz = [UInt8](try #require(a[UpdateIndex.compressedManifestName]))
        #expect(index.compressedBytes == xz.count)
        #expect(try XZ.decompress(xz, expectedSize: manifestBytes.count) == manifestBytes)
    }

    @Test("--against: predecessors listed newest first; each patch reproduces the new manifest byte for byte; two builds behind still patches")
    func patches() async throws {
        let workspace = try Workspace()
        try layOut(workspace)
        let v1 = "\(workspace.root)/v1", v2 = "\(workspace.root)/v2", v3 = "\(workspace.root)/v3"
        _ = try await build(workspace, output: v1)
        try changeOneImage(workspace)
        let second = try await build(workspace, output: v2, previous: v1)
        #expect(second.exitStatus == 0)
        func bytes(_ path: String) throws -> [UInt8] { [UInt8](try #require(FileManager.default.contents(atPath: path))) }
        let m1 = try bytes("\(v1)/manifest.json"), m2 = try bytes("\(v2)/manifest.json")
        let manifest2 = try ManifestWriter.read(from: "\(v2)/manifest.json")
        #expect(manifest2.predecessors == [ManifestReference(of: m1)])
        let index2 = try UpdateIndex.decode(Data(try bytes("\(v2)/\(UpdateIndex.fileName)")), source: "updates.json")
        let patch = try #require(index2.patch(from: ManifestReference(of: m1)))
        #expect(patch.path == ManifestPatch.path(from: ContentHash.of(m1), to: ContentHash.of(m2)))
        let patchBytes = try bytes("\(v2)/\(patch.path)")
        #expect(patchBytes.count == patch.bytes)
        #expect(try ManifestPatch.apply(patchBytes, to: m1, target: index2.manifest) == m2)

        // A third build against the second: patches from both, and the first's bytes kept for the next.
        try workspace.write(try bytes("\(workspace.input)/Assets.xcassets/Blue Circle.imageset/Blue Circle.png"),
                            as: "Assets.xcassets/Red Star.imageset/Red Star.png")
        _ = try await build(workspace, output: v3, previous: v2)
        let m3 = try bytes("\(v3)/manifest.json")
        let manifest3 = try ManifestWriter.read(from: "\(v3)/manifest.json")
        #expect(manifest3.predecessors == [ManifestReference(of: m2), ManifestReference(of: m1)])
        let index3 = try UpdateIndex.decode(Data(try bytes("\(v3)/\(UpdateIndex.fileName)")), source: "updates.json")
        #expect(index3.patches.map(\.from) == manifest3.predecessors)
        for (held, from) in [(m2, index3.patches[0]), (m1, index3.patches[1])] {
            #expect(try ManifestPatch.apply(try bytes("\(v3)/\(from.path)"), to: held, target: ManifestReference(of: m3)) == m3)
        }
        // The manifests patches start from are kept for the next build as they were read: v2's own
        // compressed manifest, and the copy of v1's that v2 kept.
        let history1 = PreviousManifests.historyPath(of: ManifestReference(of: m1))
        #expect(try bytes("\(v3)/\(history1)") == bytes("\(v2)/\(history1)"))
        #expect(try bytes("\(v3)/\(PreviousManifests.historyPath(of: ManifestReference(of: m2)))")
                == bytes("\(v2)/\(UpdateIndex.compressedManifestName)"))
        // Only the changed image's objects are new.
        let old = Set((try ManifestWriter.read(from: "\(v1)/manifest.json").objects ?? []).map(\.sha256))
        let added = (manifest2.objects ?? []).filter { !old.contains($0.sha256) }
        #expect(!added.isEmpty && added.count <= 8, "\(added.count)")
    }

    @Test("a build of an unchanged manifest keeps the compressed manifest it finds for it, and makes it again when it does not decode to it")
    func unchangedManifestIsNotCompressedAgain() async throws {
        let workspace = try Workspace()
        try layOut(workspace)
        let output = "\(workspace.root)/out"
        _ = try await build(workspace, output: output)
        let path = "\(output)/manifest.json.xz"
        let first = try FileManager.default.attributesOfItem(atPath: path)
        _ = try await build(workspace, output: output)
        let second = try FileManager.default.attributesOfItem(atPath: path)
        // Not written again: the same file (a rename would give another inode).
        #expect(first[.systemFileNumber] as? UInt64 == second[.systemFileNumber] as? UInt64)
        let made = try #require(FileManager.default.contents(atPath: path))
        // A damaged copy of the right size decodes to something else: it is made again.
        var damaged = made
        damaged[damaged.count / 2] ^= 0xff
        try damaged.write(to: URL(fileURLWithPath: path))
        _ = try await build(workspace, output: output)
        #expect(FileManager.default.contents(atPath: path) == made)
    }

    @Test("--against a URL of a static host (nginx): the previous manifest and its predecessors' bytes are fetched from beside it")
    func againstURL() async throws {
        let workspace = try Workspace()
        try layOut(workspace)
        let nginx = try NginxServer(serving: URL(fileURLWithPath: workspace.root))
        defer { nginx.stop() }
        let v1 = "\(workspace.root)/v1", v2 = "\(workspace.root)/v2", v3 = "\(workspace.root)/v3"
        _ = try await build(workspace, output: v1)
        try changeOneImage(workspace)
        _ = try await build(workspace, output: v2, previous: "\(nginx.baseURL.absoluteString)/v1/manifest.json")
        try workspace.write([UInt8](try #require(FileManager.default.contents(
            atPath: "\(workspace.input)/Assets.xcassets/Blue Circle.imageset/Blue Circle.png"))),
                            as: "Assets.xcassets/Red Star.imageset/Red Star.png")
        _ = try await build(workspace, output: v3, previous: "\(nginx.baseURL.absoluteString)/v2/manifest.json")
        func bytes(_ path: String) throws -> [UInt8] { [UInt8](try #require(FileManager.default.contents(atPath: path))) }
        let m1 = try bytes("\(v1)/manifest.json"), m2 = try bytes("\(v2)/manifest.json"), m3 = try bytes("\(v3)/manifest.json")
        #expect(try ManifestWriter.read(from: "\(v3)/manifest.json").predecessors == [ManifestReference(of: m2), ManifestReference(of: m1)])
        let index = try UpdateIndex.decode(Data(try bytes("\(v3)/\(UpdateIndex.fileName)")), source: "updates.json")
        let fromFirst = try #require(index.patch(from: ManifestReference(of: m1)))
        #expect(try ManifestPatch.apply(try bytes("\(v3)/\(fromFirst.path)"), to: m1, target: ManifestReference(of: m3)) == m3)
    }
}
