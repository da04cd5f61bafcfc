@testable import BuildCache
import Foundation
import Testing
import TestServers
import TesseraCore

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
        let remote = { RemoteCache(base: server.baseURL.appendingPathComponent("cache")) }
        let store = "\(setting.store)/cache"
        _ = try await setting.workspace.build(into: "\(setting.workspace.root)/one", cache: try setting.freshCache("local-one", remote: remote()))
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(store)/ac").sorted()
        #expect(entries.count > 3)
        for name in entries { #expect(StoredRecords.problem(in: store, name: name) == nil) }
        // A job's entry lists the files it wrote, by path and digest, besides Tessera's record.
        let paths = entries.compactMap { try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(store)/ac/\($0)")))) }
            .flatMap { $0.outputFiles.map(\.path) }
        #expect(paths.contains(RemoteActionRecord.recordPath) && paths.contains { $0.hasPrefix("variants/") })

        // As bazel-remote stores them: re-encoded with execution metadata added (field 9) and
        // the inline stdout dropped. A clone then reads each record from its CAS blob.
        for name in entries {
            let path = "\(store)/ac/\(name)"
            var result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            result.stdoutRaw = Data()
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

    @Test("an entry an older Tessera stored (the record itself) is still read")
    func legacyEntriesAreRead() throws {
        let record = Array("not a protobuf: a framed Tessera record\n{}".utf8)
        #expect(RemoteActionRecord.read(record) == .legacy)
        let encoded = RemoteActionRecord.encode(record: record, outputs: [("variants/a.png", ContentHash.of([1]), 1)])
        #expect(RemoteActionRecord.read(encoded) == .record(record))
        #expect(RemoteActionRecord.encode(record: record, outputs: []) == RemoteActionRecord.encode(record: record, outputs: []))
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
