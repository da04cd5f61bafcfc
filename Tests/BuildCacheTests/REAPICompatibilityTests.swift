@testable import BuildCache
import Foundation
import Testing
import TestServers
import TesseraCore
import REAPIMessages

/// What any REAPI cache (bazel-remote, Buildbarn, BuildBuddy) requires of `/ac/` entries, checked
/// on a real store that nginx WebDAV filled: each one an `ActionResult` whose output files are
/// CAS blobs (issue 29). bazel-remote itself could not be obtained here (no Go module proxy or
/// GitHub release is reachable); its re-encoding is imitated below.
@Suite("Remote cache entries as REAPI ActionResults", .serialized)
struct REAPICompatibilityTests {
    @Test("every stored /ac/ entry parses as an ActionResult naming CAS blobs; a clone still hits through them")
    func entriesAreActionResults() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        // Without packs every job stores its own entry, which is what is checked here (a complete
        // build with packs stores its pack instead: ResultPackTests checks those entries).
        let remote = { RemoteCache(base: server.baseURL.appendingPathComponent("cache"), storesPacks: false) }
        let store = "\(setting.store)/cache"
        _ = try await setting.workspace.build(into: "\(setting.workspace.root)/one", cache: try setting.freshCache("local-one", remote: remote()))
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(store)/ac").sorted()
        #expect(entries.count > 3)
        for name in entries { #expect(StoredRecords.problem(in: store, name: name) == nil) }
        // A job's entry lists the files it wrote, by path and digest, besides Tessera's record.
        let paths = entries.compactMap { try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(store)/ac/\($0)")))) }
            .flatMap { $0.outputFiles.map(\.path) }
        #expect(paths.contains(RemoteActionRecord.recordPath) && paths.contains { $0.hasPrefix("variants/") })

        // Each job's upload is its entry alone when its outputs are small: the record and those
        // outputs travel inline, so the store holds no CAS blob for them.
        let blobs = Set((try? FileManager.default.contentsOfDirectory(atPath: "\(store)/cas")) ?? [])
        for name in entries {
            let result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(store)/ac/\(name)"))))
            for file in result.outputFiles where !file.contents.isEmpty { #expect(!blobs.contains(file.digest.hash), "\(file.path)") }
        }

        // As a server that moves inline files to its CAS stores them: re-encoded with execution
        // metadata added (field 9), each inline file's bytes a blob and its contents dropped. A
        // clone then reads each record and output from its CAS blob.
        try FileManager.default.createDirectory(atPath: "\(store)/cas", withIntermediateDirectories: true)
        for name in entries {
            let path = "\(store)/ac/\(name)"
            var result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            for index in result.outputFiles.indices where !result.outputFiles[index].contents.isEmpty {
                try result.outputFiles[index].contents.write(to: URL(fileURLWithPath: "\(store)/cas/\(result.outputFiles[index].digest.hash)"))
                result.outputFiles[index].contents = Data()
            }
            var bytes: [UInt8] = try result.serializedBytes()
            let worker = Array("bazel-remote".utf8)
            bytes += [0x4A, UInt8(worker.count + 2), 0x0A, UInt8(worker.count)] + worker
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(StoredRecords.problem(in: store, name: name) == nil)
        }
        let clone = try await setting.workspace.build(into: "\(setting.workspace.root)/two", cache: try setting.freshCache("local-two", remote: remote()))
        #expect(clone.report.warnings.filter { $0.stage == .cache }.isEmpty, "\(clone.report.warnings)")
        #expect(clone.report.cache?.fileMisses == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
    }

    @Test("an entry an older Tessera stored (the record itself, or an ActionResult with it in stdout_raw) is still read")
    func legacyEntriesAreRead() throws {
        let record = Array("not a protobuf: a framed Tessera record\n{}".utf8)
        #expect(RemoteActionRecord.read(record).record == .legacy)
        let output = RemoteActionRecord.Output(path: "variants/a.png", sha256: ContentHash.of([1, 2]), size: 2, contents: [1, 2])
        let encoded = RemoteActionRecord.encode(record: record, outputs: [output])
        #expect(RemoteActionRecord.read(encoded) == .init(record: .inline(record), contents: [ContentHash.of([1, 2]): [1, 2]]))
        #expect(RemoteActionRecord.encode(record: record, outputs: []) == RemoteActionRecord.encode(record: record, outputs: []))
        // Inline bytes that do not match their digest are not taken.
        var tampered = output
        tampered.contents = [9, 9]
        #expect(RemoteActionRecord.read(RemoteActionRecord.encode(record: record, outputs: [tampered])).contents.isEmpty)
        // As the previous format wrote it: the record in stdout_raw, not in its file's contents.
        var result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: encoded)
        result.outputFiles[0].contents = Data()
        result.stdoutRaw = Data(record)
        #expect(RemoteActionRecord.read(try result.serializedBytes()).record == .inline(record))
        result.stdoutRaw = Data()
        #expect(RemoteActionRecord.read(try result.serializedBytes()).record == .blob(ContentHash.of(record), size: record.count))
    }

    @Test("outputs that are byte copies of the sources are never uploaded; a clone restores them from its own sources")
    func sourceCopiesStayHome() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        let remote = { RemoteCache(base: server.baseURL.appendingPathComponent("cache")) }
        let store = "\(setting.store)/cache"
        let fill = try await setting.workspace.build(into: "\(setting.workspace.root)/one", cache: try setting.freshCache("local-one", remote: remote()))
        #expect(fill.report.warnings.filter { $0.stage == .cache }.isEmpty)
        let sources = Set((FileManager.default.enumerator(atPath: setting.workspace.input)?.allObjects as? [String] ?? []).compactMap {
            FileManager.default.contents(atPath: "\(setting.workspace.input)/\($0)").map { ContentHash.of([UInt8]($0)).hex }
        })
        let copied = Set(try #require(fill.manifest).assets.flatMap(\.variants).filter { !$0.generated }.map(\.sha256.hex))
        #expect(!copied.isEmpty && copied.isSubset(of: sources), "the sample has provided variants, copied as they are")
        let uploaded = Set(try FileManager.default.contentsOfDirectory(atPath: "\(store)/cas"))
        #expect(uploaded.isDisjoint(with: copied), "\(uploaded.intersection(copied))")
        let clone = try await setting.workspace.build(into: "\(setting.workspace.root)/two", cache: try setting.freshCache("local-two", remote: remote()))
        #expect(clone.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(clone.report.cache?.fileMisses == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
    }
}
