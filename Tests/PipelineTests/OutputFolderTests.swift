import Foundation
import Manifests
@testable import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Issue 38, item 2: an output folder holds exactly one build. What an earlier build left and this
/// one did not make is removed once the build is complete; a folder no Tessera build wrote is
/// refused unless forced, and never cleaned.
@Suite("The output folder is exactly this build")
struct OutputFolderTests {
    private func build(_ pipeline: String, input: String, output: String, force: Bool = false) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/\(pipeline)")
        let request = BuildRequest(definition: definition, inputFolder: input, outputFolder: output, force: force)
        return try await PipelineRunner.run(request)
    }

    /// Every file under `folder` but report.json (its timings differ), by relative path, with its bytes.
    private func files(_ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for name in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder)
            if !isFolder.boolValue, name != "report.json" { result[name] = FileManager.default.contents(atPath: "\(folder)/\(name)") }
        }
        return result
    }

    @Test("a rebuild after an asset was removed, without the report stage, leaves the folder as a fresh build of the same input would be")
    func rebuildLeavesOnlyThisBuild() async throws {
        let workspace = try Workspace()
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: "\(workspace.input)/app")
        let reused = "\(workspace.root)/out"
        let first = try await build("samples.yml", input: "\(workspace.input)/app", output: reused)
        #expect(first.exitStatus == 0)
        #expect(FileManager.default.fileExists(atPath: "\(reused)/size-report.html"))
        // An image set goes; the next build has no report stage.
        let catalog = "\(workspace.input)/app/ODR.xcassets"
        let removed = try #require(try FileManager.default.contentsOfDirectory(atPath: catalog).filter { $0.hasSuffix(".imageset") }.sorted().first)
        try FileManager.default.removeItem(atPath: "\(catalog)/\(removed)")
        let second = try await build("app-thinning.yml", input: "\(workspace.input)/app", output: reused)
        #expect(second.exitStatus == 0)
        let fresh = try await build("app-thinning.yml", input: "\(workspace.input)/app", output: "\(workspace.root)/fresh")
        #expect(fresh.exitStatus == 0)
        let stem = String(removed.dropLast(".imageset".count))
        let left = files(reused)
        #expect(!left.keys.contains { $0.contains(stem) }, "\(left.keys.filter { $0.contains(stem) })")
        #expect(!left.keys.contains { $0.hasPrefix("size-report") || $0.hasPrefix("App Thinning") })
        #expect(left == files("\(workspace.root)/fresh"), "\(Set(left.keys).symmetricDifference(files("\(workspace.root)/fresh").keys).sorted())")
    }

    @Test("the check of a restored build lists, from manifest.json's paths, sizes and hashes alone, exactly the files the whole manifest lists")
    func restoredCheckListsWhatTheManifestLists() async throws {
        let workspace = try Workspace()
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: "\(workspace.input)/app")
        let output = "\(workspace.root)/out"
        #expect(try await build("samples.yml", input: "\(workspace.input)/app", output: output).exitStatus == 0)
        let whole = OutputConsistency.listed(in: try ManifestWriter.read(from: "\(output)/manifest.json"))
        let light = try OutputConsistency.listed(inManifestAt: "\(output)/manifest.json")
        #expect(whole.map(\.path) == light.map(\.path) && whole.map(\.bytes) == light.map(\.bytes) && whole.map(\.sha256) == light.map(\.sha256))
        #expect(whole.contains { $0.path.hasSuffix(".bitmap") } && whole.contains { $0.path.hasPrefix("bundles/") })
        #expect(throws: TesseraError.self) { try OutputConsistency.listed(inManifestAt: "\(output)/report.json") }
    }

    @Test("a non-empty folder no Tessera build wrote is refused, naming it (exit 2); with force it is used and nothing of its own is removed")
    func foreignFolderIsRefused() async throws {
        let workspace = try Workspace()
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: "\(workspace.input)/app")
        let foreign = "\(workspace.root)/theirs"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(foreign)/notes.txt"))
        let error = await #expect(throws: TesseraError.self) {
            _ = try await build("app-thinning.yml", input: "\(workspace.input)/app", output: foreign)
        }
        #expect(error?.kind == .configuration && error?.file == foreign && error?.reason.contains("--force") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign) == ["notes.txt"])
        let forced = try await build("app-thinning.yml", input: "\(workspace.input)/app", output: foreign, force: true)
        #expect(forced.exitStatus == 0)
        // A second build there is a Tessera folder now; the file it never listed stays.
        _ = try await build("app-thinning.yml", input: "\(workspace.input)/app", output: foreign)
        #expect(FileManager.default.contents(atPath: "\(foreign)/notes.txt") == Data("keep me".utf8))
        // Hidden files alone do not make a folder someone else's.
        let hidden = "\(workspace.root)/hidden"
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: "\(hidden)/.gitkeep"))
        #expect(try await build("app-thinning.yml", input: "\(workspace.input)/app", output: hidden).exitStatus == 0)
        let cli = try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/app-thinning.yml", "--input", "\(workspace.input)/app",
                                          "--output", "\(workspace.input)/app"])
        #expect(cli.status == 2 && cli.stderr.contains("no Tessera build wrote it"), "\(cli.stderr)")
    }

    @Test("a temporary file a killed restore left (a blob being placed) has the name the next run recognises and removes")
    func placementTemporariesAreSwept() {
        let name = (AtomicFile.temporaryPath(for: "/out/variants/icon@3x.png") as NSString).lastPathComponent
        #expect(name.hasPrefix(".tessera-tmp-icon@3x.png.") && StaleTemporaryFiles.isTemporaryName(name))
    }

    @Test("the ledger records a file under its folder whatever the spelling of the path: relative, with dot segments or doubled slashes; nothing outside it")
    func ledgerNormalisesPaths() throws {
        let workspace = try Workspace()
        let folder = "\(workspace.root)/ledger-out"
        let cwd = FileManager.default.currentDirectoryPath
        OutputLedger.open(folder + "/")
        OutputLedger.record("\(folder)/variants/./a.png")
        OutputLedger.record("\(folder)//bundles/x/../b.tsb")
        OutputLedger.record("\(folder)/../elsewhere.png")
        OutputLedger.record("\(folder)-sibling/c.png")
        // Relative to the working folder, which the test leaves alone (tests run in parallel).
        let upward = String(repeating: "../", count: cwd.split(separator: "/").count)
        OutputLedger.record(upward + folder.dropFirst() + "/manifest.json")
        for index in 0..<5_000 { OutputLedger.record("\(folder)/many/\(index).png") }
        let recorded = OutputLedger.close(folder)
        #expect(recorded.count == 5_003)
        #expect(recorded.isSuperset(of: ["variants/a.png", "bundles/b.tsb", "manifest.json", "many/0.png", "many/4999.png"]))
        #expect(!recorded.contains { $0.contains("elsewhere") || $0.contains("c.png") })
    }
}
