import Foundation
import Pipeline
import TestServers
import TestSupport
import TesseraCore
import Testing

/// CI annotations against a previous build (`--against`): only problems on files a change added
/// or edited are annotated; the previous build's problems on unchanged files are one notice.
@Suite("Annotations on what changed")
struct ChangedFileAnnotationTests {
    let pipeline = "\(Workspace.packageRoot)/Pipelines/samples.yml"

    /// Main's checkout: one good image and one with no 3x (a warning), built into `main-out`.
    static func mainBuild(_ workspace: Workspace, pipeline: String) async throws {
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/old@2x.png")
        try workspace.add("png/pngsuite/basn6a08.png", as: "icons/good@2x.png")
        try workspace.add("png/pngsuite/basn6a08.png", as: "icons/good@3x.png")
        let main = try await TesseraProcess.run(["run", pipeline, "--input", workspace.input, "--output", "\(workspace.root)/main-out", "--progress", "quiet"])
        #expect(main.status == 0, "\(main.stderr)")
    }

    /// A pull request's checkout, elsewhere (CI workspaces differ), with `added` files besides main's.
    static func pullRequest(_ workspace: Workspace, added: [(String, String)], changed: Bool = false) throws -> String {
        let checkout = "\(workspace.root)/pr-\(added.count)-\(changed)"
        try FileManager.default.copyItem(atPath: workspace.input, toPath: checkout)
        for (corpus, name) in added {
            try FileManager.default.createDirectory(atPath: "\(checkout)/\((name as NSString).deletingLastPathComponent)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(Workspace.corpus)/\(corpus)", toPath: "\(checkout)/\(name)")
        }
        if changed {
            // The old file with other bytes: a change the pull request made to it.
            try FileManager.default.removeItem(atPath: "\(checkout)/icons/old@2x.png")
            try FileManager.default.copyItem(atPath: "\(Workspace.corpus)/png/pngsuite/basn6a08.png", toPath: "\(checkout)/icons/old@2x.png")
        }
        return checkout
    }

    func annotations(_ workspace: Workspace, input: String, against: String, tag: String) async throws -> (warnings: [String], notices: [String]) {
        let run = try await TesseraProcess.run(["run", pipeline, "--input", input, "--output", "\(workspace.root)/out-\(tag)", "--progress", "quiet",
                                          "--against", against],
                                         environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.root])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        return (lines.filter { $0.hasPrefix("::warning ") || $0.hasPrefix("::error ") }, lines.filter { $0.hasPrefix("::notice ") })
    }

    @Test("a pull request adding one file with a problem to an app that had one: exactly one annotation, on the new file, and a notice counting the old")
    func onlyTheNewFileIsAnnotated() async throws {
        let workspace = try Workspace()
        try await Self.mainBuild(workspace, pipeline: pipeline)
        let checkout = try Self.pullRequest(workspace, added: [("png/pngsuite/basn2c08.png", "icons/new@2x.png")])
        let found = try await annotations(workspace, input: checkout, against: "\(workspace.root)/main-out", tag: "folder")
        #expect(found.warnings.count == 1 && found.warnings[0].hasPrefix("::warning file=pr-1-false/icons/new@2x.png,"), "\(found.warnings)")
        #expect(found.notices == ["::notice title=Tessera::1 problem on files unchanged since the previous build is not annotated (report.json lists every problem)"],
                "\(found.notices)")
        // Without --against, both are annotated, as before.
        let all = try await TesseraProcess.run(["run", pipeline, "--input", checkout, "--output", "\(workspace.root)/out-all", "--progress", "quiet"],
                                         environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.root])
        #expect(all.stdout.split(separator: "\n").filter { $0.hasPrefix("::warning ") }.count == 2, "\(all.stdout)")
    }

    @Test("a file the pull request changed is annotated although its problem is old")
    func aChangedFileIsAnnotated() async throws {
        let workspace = try Workspace()
        try await Self.mainBuild(workspace, pipeline: pipeline)
        let checkout = try Self.pullRequest(workspace, added: [], changed: true)
        let found = try await annotations(workspace, input: checkout, against: "\(workspace.root)/main-out/manifest.json", tag: "changed")
        #expect(found.warnings.count == 1 && found.warnings[0].contains("file=pr-0-true/icons/old@2x.png,"), "\(found.warnings)")
        #expect(found.notices.isEmpty)
    }

    @Test("against a tessera serve channel: publish uploads report.json, the channel serves it, and only the new file is annotated")
    func againstAServeChannel() async throws {
        let workspace = try Workspace()
        try await Self.mainBuild(workspace, pipeline: pipeline)
        let server = try ServeProcess(folder: "\(workspace.root)/serve")
        defer { server.stop() }
        let published = try await ServeProcess.run(["publish", "\(workspace.root)/main-out", "--server", server.url,
                                              "--token-file", server.tokenFile, "--channel", "main"])
        #expect(published.status == 0, "\(published.stderr)")
        let kept = try #require(BuildReport.read(from: "\(workspace.root)/main-out/report.json")?.problemFiles)
        #expect(kept == ["icons/old@2x.png": try ContentHash.ofFile(at: "\(workspace.input)/icons/old@2x.png").hex])
        let served = PreviousProblems.load("\(server.url)/v1/channels/main")
        #expect(served.files == kept && served.unknown == nil, "\(String(describing: served.unknown))")
        let checkout = try Self.pullRequest(workspace, added: [("png/pngsuite/basn2c08.png", "icons/new@2x.png")])
        let found = try await annotations(workspace, input: checkout, against: "\(server.url)/v1/channels/main", tag: "server")
        #expect(found.warnings.count == 1 && found.warnings[0].contains("file=pr-1-false/icons/new@2x.png,"), "\(found.warnings)")
        // No report to be had: unknown, with the reason (every problem is then annotated).
        let missing = PreviousProblems.load("\(server.url)/v1/channels/nightly")
        #expect(missing.files == nil && missing.unknown?.contains("HTTP 404") == true, "\(String(describing: missing.unknown))")
    }
}
