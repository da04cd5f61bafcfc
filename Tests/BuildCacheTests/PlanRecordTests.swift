@testable import BuildCache
import Foundation
import JobEngine
@testable import Pipeline
import Testing
import TestServers
@testable import TesseraCore
@testable import tessera

/// Plan records: a build whose inputs were planned before restores its jobs' files without
/// planning; anything that could change the plan misses the record.
@Suite("Plan records")
struct PlanRecordTests {
    private func planCounts(_ outcome: BuildOutcome) -> CacheCounts? { outcome.report.cache?[.plan] }

    @Test("a no-op rebuild comes from the plan record: no job runs, no file is read, the bytes and warnings are the build's")
    func noOpUsesTheRecord() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.add("png/pngsuite/basn2c08.png", as: "notes/only@2x.png")
        try workspace.ageSources()
        let reference = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
        let output = "\(workspace.root)/out"
        let cold = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(planCounts(cold) == CacheCounts(misses: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(workspace.cacheFolder.path)/plans").count == 1)
        // The build warns (a 2x with no 3x); the warning must come back with the record.
        #expect(cold.report.warnings.contains { $0.file.hasSuffix("notes/only@2x.png") })

        let cache = try workspace.openCache()
        let noOp = try await workspace.build(into: output, cache: cache)
        #expect(noOp.exitStatus == 0)
        #expect(planCounts(noOp) == CacheCounts(hits: 1))
        #expect(noOp.run.outcomes.isEmpty && noOp.report.stages.isEmpty)
        #expect(cache.fingerprints.filesRead == 0)
        #expect(noOp.report.warnings == cold.report.warnings)
        #expect(noOp.report.variantsWritten == cold.report.variantsWritten && noOp.report.variantsPlanned == cold.report.variantsPlanned)
        #expect(noOp.assetCount == cold.assetCount && noOp.manifest == cold.manifest)
        // Every cacheable job is counted a hit, as the planned no-op counts them.
        var planned = cold.report.cache ?? [:]
        planned[.plan] = nil
        #expect((noOp.report.cache ?? [:]).filter { $0.key != .plan && $0.value.hits > 0 }.mapValues(\.hits)
            == planned.mapValues(\.misses))
        #expect((noOp.report.cache?[.decode]?.avoided ?? 0) > 0)
        #expect(workspace.outputs(output) == workspace.outputs("\(workspace.root)/plain"))
        #expect(reference.exitStatus == 0)

        // A deleted output comes back from the record too.
        try FileManager.default.removeItem(atPath: "\(output)/manifest.json")
        let restored = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(planCounts(restored) == CacheCounts(hits: 1))
        #expect(workspace.outputs(output) == workspace.outputs("\(workspace.root)/plain"))
    }

    @Test("a second checkout at another absolute path takes the plan record, its warnings naming its own files")
    func recordIgnoresWhereTheCheckoutIs() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.add("png/pngsuite/basn2c08.png", as: "notes/only@2x.png")
        try workspace.ageSources()
        let definition = try PipelineFileReader.read(path: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml")
        var outcomes: [BuildOutcome] = []
        for checkout in ["\(workspace.root)/a/project", "\(workspace.root)/b/deeper/project"] {
            try FileManager.default.createDirectory(atPath: "\(checkout)/.git", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: workspace.input, toPath: "\(checkout)/assets")
            let cache = try workspace.openCache()
            outcomes.append(try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(checkout)/assets",
                                                                      outputFolder: "\(checkout)/out", cache: cache, fileHashing: cache)))
        }
        #expect(planCounts(outcomes[0]) == CacheCounts(misses: 1) && planCounts(outcomes[1]) == CacheCounts(hits: 1))
        #expect(outcomes[1].run.outcomes.isEmpty)
        let warning = try #require(outcomes[1].report.warnings.first { $0.file.hasSuffix("notes/only@2x.png") })
        #expect(warning.file == "\(workspace.root)/b/deeper/project/assets/notes/only@2x.png")
        #expect(workspace.outputs("\(workspace.root)/a/project/out") == workspace.outputs("\(workspace.root)/b/deeper/project/out"))
    }

    @Test("copies of a checkout without .git (a Docker build context) take each other's plan record, whatever the current directory")
    func copyWithoutGitTakesTheRecord() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        let definition = try PipelineFileReader.read(path: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml")
        var outcomes: [BuildOutcome] = []
        for copy in ["\(workspace.root)/context-one", "\(workspace.root)/elsewhere/context-two"] {
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: workspace.input, toPath: "\(copy)/assets")
            let cache = try workspace.openCache()
            outcomes.append(try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(copy)/assets",
                                                                      outputFolder: "\(copy)/out", cache: cache, fileHashing: cache)))
        }
        #expect(planCounts(outcomes[0]) == CacheCounts(misses: 1) && planCounts(outcomes[1]) == CacheCounts(hits: 1))
        #expect(workspace.outputs("\(workspace.root)/context-one/out") == workspace.outputs("\(workspace.root)/elsewhere/context-two/out"))
    }

    @Test("a copy without .git takes the record its checkout with .git stored; another input name or output place does not")
    func copyWithoutGitTakesTheCheckoutsRecord() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        let definition = try PipelineFileReader.read(path: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml")
        let checkout = "\(workspace.root)/checkout", copy = "\(workspace.root)/context"
        try FileManager.default.createDirectory(atPath: "\(checkout)/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: workspace.input, toPath: "\(checkout)/assets")
        try FileManager.default.copyItem(atPath: workspace.input, toPath: "\(copy)/assets")
        try FileManager.default.copyItem(atPath: workspace.input, toPath: "\(copy)/renamed")
        func build(_ input: String, _ output: String) async throws -> BuildOutcome {
            let cache = try workspace.openCache()
            return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input, outputFolder: output,
                                                             cache: cache, fileHashing: cache))
        }
        let first = try await build("\(checkout)/assets", "\(checkout)/out")
        let copied = try await build("\(copy)/assets", "\(copy)/out")
        #expect(planCounts(first) == CacheCounts(misses: 1) && planCounts(copied) == CacheCounts(hits: 1))
        #expect(copied.run.outcomes.isEmpty)
        #expect(workspace.outputs("\(checkout)/out") == workspace.outputs("\(copy)/out"))
        // The input's own name and the output's place from it are part of the key.
        #expect(planCounts(try await build("\(copy)/renamed", "\(copy)/out-renamed")) == CacheCounts(misses: 1))
        #expect(planCounts(try await build("\(copy)/assets", "\(copy)/assets-out")) == CacheCounts(misses: 1))
        #expect(FolderRelation(input: "/a/b/assets", output: "/a/b/out") == FolderRelation(input: "/x/assets/", output: "/x/./out"))
        #expect(FolderRelation(input: "/a/assets", output: "/a/assets/build").outputFromInput == "build")
    }

    @Test("a changed, added or removed file or folder misses the record; hidden files and the output folder inside the input do not")
    func whatTheKeyCovers() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        // The output folder inside the input: the build must not invalidate its own record.
        let output = "\(workspace.input)/build"
        func run() async throws -> CacheCounts? {
            let outcome = try await workspace.build(into: output, cache: try workspace.openCache())
            #expect(outcome.exitStatus == 0)
            return planCounts(outcome)
        }
        #expect(try await run() == CacheCounts(misses: 1))
        #expect(try await run() == CacheCounts(hits: 1))

        try Data("ignored".utf8).write(to: URL(fileURLWithPath: "\(workspace.input)/.DS_Store"))
        #expect(try await run() == CacheCounts(hits: 1))

        // A file the catalog reader ignores still counts: the record is never more trusting than the reader.
        try Data("read me".utf8).write(to: URL(fileURLWithPath: "\(workspace.input)/README.txt"))
        #expect(try await run() == CacheCounts(misses: 1))
        #expect(try await run() == CacheCounts(hits: 1))

        try FileManager.default.createDirectory(atPath: "\(workspace.input)/empty", withIntermediateDirectories: true)
        #expect(try await run() == CacheCounts(misses: 1))

        try workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        #expect(try await run() == CacheCounts(misses: 1))

        try FileManager.default.removeItem(atPath: "\(workspace.input)/anim/loops@2x.gif")
        #expect(try await run() == CacheCounts(misses: 1))
        #expect(try await run() == CacheCounts(hits: 1))

        // Another pipeline (one option changed) over the same tree is another plan.
        var definition = try PipelineFileReader.read(path: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml")
        definition.encode.png.compressionLevel = 9
        let cache = try workspace.openCache()
        let other = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                              outputFolder: output, cache: cache, fileHashing: cache))
        #expect(planCounts(other) == CacheCounts(misses: 1))
        #expect(try await run() == CacheCounts(hits: 1))
    }

    @Test("a record naming an entry the cache lost, or a damaged record, falls back to planning and builds the same bytes")
    func fallsBackToPlanning() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        _ = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
        let reference = workspace.outputs("\(workspace.root)/plain")
        let output = "\(workspace.root)/out"
        _ = try await workspace.build(into: output, cache: try workspace.openCache())

        // One variant's entry gone, and its file: that job reruns, the rest are hits.
        let entries = workspace.cacheFiles("ac").filter { path in
            FileManager.default.contents(atPath: path).flatMap { ActionEntry.parse([UInt8]($0)) }?.stage == "write"
        }
        let lostBytes = try #require(FileManager.default.contents(atPath: entries[0]))
        let lost = try #require(ActionEntry.parse([UInt8](lostBytes)))
        try FileManager.default.removeItem(atPath: entries[0])
        try FileManager.default.removeItem(atPath: "\(output)/\(lost.outputs[0].path)")
        let rebuilt = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(planCounts(rebuilt) == CacheCounts(misses: 1))
        #expect(rebuilt.report.cache?[.write]?.misses == 1)
        #expect(workspace.outputs(output) == reference)

        // A flipped byte in the record: not believed, removed, planned, recorded again.
        let records = workspace.cacheFiles("plans")
        try #require(records.count == 1)
        var bytes = try #require(FileManager.default.contents(atPath: records[0]))
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: records[0]))
        let replanned = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(planCounts(replanned) == CacheCounts(misses: 1))
        #expect(replanned.report.cache?.fileMisses == 0)
        #expect(workspace.outputs(output) == reference)
        let again = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(planCounts(again) == CacheCounts(hits: 1))
    }

    @Test("a fresh clone takes the plan record from the remote cache and restores the build without planning")
    func cloneUsesTheRemoteRecord() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        let workspace = setting.workspace
        try workspace.ageSources()
        let output = "\(workspace.root)/out"
        let fill = try await workspace.build(into: output, cache: try setting.freshCache("local-one", remote: RemoteCache(base: server.baseURL)))
        #expect(planCounts(fill) == CacheCounts(misses: 1))

        // Another runner: the same checkout paths, an empty local cache and no output yet.
        try FileManager.default.removeItem(atPath: output)
        let remote = RemoteCache(base: server.baseURL, readOnly: true)
        let clone = try await workspace.build(into: output, cache: try setting.freshCache("local-two", remote: remote))
        #expect(clone.exitStatus == 0)
        #expect(planCounts(clone) == CacheCounts(hits: 1))
        #expect(clone.run.outcomes.isEmpty)
        #expect(clone.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(workspace.outputs(output) == setting.reference)
        // The record is kept locally: the next run asks the server nothing.
        let requests = remote.requestCount
        let noOp = try await workspace.build(into: output, cache: try setting.freshCache("local-two", remote: remote))
        #expect(planCounts(noOp) == CacheCounts(hits: 1))
        #expect(remote.requestCount == requests)
    }

    @Test("the program's build ID is the one readelf finds in its notes; a note list is walked past other notes and never over its end")
    func programIdentity() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        readelf.arguments = ["-n", executable]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.contains("Build ID:") })
        let expected = String(try #require(line.split(separator: " ").last))
        #expect(ProgramIdentity.buildID == expected)

        func note(_ name: String, type: UInt32, _ description: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            let name = Array(name.utf8) + [0]
            bytes.appendLittleEndian(UInt32(name.count))
            bytes.appendLittleEndian(UInt32(description.count))
            bytes.appendLittleEndian(type)
            bytes += name + [UInt8](repeating: 0, count: (4 - name.count % 4) % 4)
            return bytes + description + [UInt8](repeating: 0, count: (4 - description.count % 4) % 4)
        }
        let id: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0x01]
        let notes = note("GNU", type: 1, [1, 2, 3, 4, 5, 6]) + note("Go", type: 3, [9]) + note("GNU", type: 3, id)
        #expect(ELFNotes.gnuBuildID(in: notes) == id)
        #expect(ELFNotes.gnuBuildID(in: Array(notes.dropLast(4))) == nil)
        #expect(ELFNotes.gnuBuildID(in: note("GNU", type: 1, [1, 2])) == nil)
    }

    @Test("the summary line counts jobs and lists the plan record apart")
    func summaryLine() {
        let counts: [JobKind: CacheCounts] = [.write: CacheCounts(hits: 24), .bundle: CacheCounts(hits: 10, misses: 1),
                                                .decode: CacheCounts(avoided: 5), .plan: CacheCounts(hits: 1)]
        #expect(CacheSummary.line(counts) == "34 hits, 1 misses, 5 jobs avoided (hits/misses: bundle 10/1, plan 1/0, write 24/0)")
    }
}
