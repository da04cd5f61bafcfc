@testable import BuildCache
import Foundation
import Pipeline
import Testing
import TestServers
import TesseraCore

/// Issue 38, item 4: a remote cache entry rewritten to name other bytes (its framing and digests
/// made consistent again, as anyone who can PUT `/ac/` can do) must not decide what a build
/// writes without a word. Against a real nginx WebDAV store on loopback.
@Suite("A poisoned remote cache", .serialized)
struct CachePoisoningTests {
    @Test("an /ac/ entry rewritten to name another PNG fails the clone's build, naming the file, instead of shipping it under the real manifest")
    func rewrittenEntryFailsTheBuild() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        _ = try await setting.workspace.build(
            into: "\(setting.workspace.root)/one",
            cache: try setting.freshCache("local-one", remote: RemoteCache(base: server.baseURL, inlineLimit: 0, storesPacks: false)))

        let target = try poison(setting)

        let clone = "\(setting.workspace.root)/two"
        let outcome = try await setting.workspace.build(
            into: clone, cache: try setting.freshCache("local-two", remote: RemoteCache(base: server.baseURL, readOnly: true)))
        // The poisoned entry was believed (the attacker's file is there) — and the build says so.
        #expect(ContentHash.of(try Data(contentsOf: URL(fileURLWithPath: "\(clone)/\(target.path)"))) == target.hash)
        #expect(outcome.exitStatus == 1)
        let failure = try #require(outcome.report.failures.first { $0.file == "\(clone)/\(target.path)" })
        #expect(failure.reason.contains("manifest.json lists") && failure.reason.contains("a cache entry named other bytes"), "\(failure.reason)")
    }

    @Test("with TESSERA_REMOTE_CACHE_KEY, keyed entries are hits; an entry rewritten without the key, or written by a build without it, is a miss: right bytes, exit 0, one warning")
    func keyedEntriesRefuseForgeries() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        let key = try #require(try EntryAuthentication.fromEnvironment(["TESSERA_REMOTE_CACHE_KEY": String(repeating: "k3y", count: 11)]))
        func remote(_ authentication: EntryAuthentication?, readOnly: Bool = false) -> RemoteCache {
            RemoteCache(base: server.baseURL, readOnly: readOnly, inlineLimit: 0, storesPacks: false, authentication: authentication)
        }
        _ = try await setting.workspace.build(into: "\(setting.workspace.root)/one",
                                              cache: try setting.freshCache("local-one", remote: remote(key)))
        // A keyed reader restores what a keyed writer stored.
        let trusted = try await setting.workspace.build(into: "\(setting.workspace.root)/two",
                                                        cache: try setting.freshCache("local-two", remote: remote(key, readOnly: true)))
        #expect(trusted.exitStatus == 0 && trusted.report.cache?.fileMisses == 0)
        #expect(trusted.report.warnings.filter { $0.stage == .cache }.isEmpty)

        _ = try poison(setting)
        let clone = "\(setting.workspace.root)/three"
        let outcome = try await setting.workspace.build(into: clone, cache: try setting.freshCache("local-three", remote: remote(key, readOnly: true)))
        #expect(outcome.exitStatus == 0)
        #expect(setting.workspace.outputs(clone) == setting.reference)
        #expect(outcome.report.warnings.contains { $0.stage == .cache && $0.reason.contains("no valid MAC") }, "\(outcome.report.warnings)")

        // Entries written without the key (a pull request's build) are not believed by a keyed one.
        let unkeyed = try await RemoteStoreSetting()
        let plain = try NginxServer(serving: URL(fileURLWithPath: unkeyed.store), webDAV: true)
        defer { plain.stop() }
        _ = try await unkeyed.workspace.build(
            into: "\(unkeyed.workspace.root)/one",
            cache: try unkeyed.freshCache("local-one", remote: RemoteCache(base: plain.baseURL, inlineLimit: 0, storesPacks: false)))
        let keyedReader = try await unkeyed.workspace.build(
            into: "\(unkeyed.workspace.root)/two",
            cache: try unkeyed.freshCache("local-two", remote: RemoteCache(base: plain.baseURL, readOnly: true, authentication: key)))
        #expect(keyedReader.exitStatus == 0 && keyedReader.report.cache?.fileMisses ?? 0 > 0)
        #expect(unkeyed.workspace.outputs("\(unkeyed.workspace.root)/two") == unkeyed.reference)
        #expect(keyedReader.report.warnings.contains { $0.reason.contains("no valid MAC") })
    }

    @Test("a remote cache key shorter than 16 bytes is refused, not ignored")
    func shortKeyIsRefused() throws {
        #expect(throws: TesseraError.self) { try EntryAuthentication.fromEnvironment(["TESSERA_REMOTE_CACHE_KEY": "short"]) }
        let unset = try EntryAuthentication.fromEnvironment([:])
        #expect(unset == nil ? true : false)
    }

    /// Rewrites the entry of the first job that wrote a PNG variant so that it names other bytes
    /// (uploaded as a CAS blob under their own digest), its framing and digests consistent, as
    /// anyone who can PUT `/ac/` could; returns the output path and the bytes' hash.
    private func poison(_ setting: RemoteStoreSetting) throws -> (path: String, hash: ContentHash) {
        // The attacker's bytes (a PNG the sample does not hold), uploaded as a CAS blob under their own (correct) digest.
        let attack = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(CacheWorkspace.corpus)/png/pngsuite/basi0g01.png")))
        let attackHash = ContentHash.of(attack)
        try Data(attack).write(to: URL(fileURLWithPath: "\(setting.store)/cas/\(attackHash.hex)"))
        // The entry of the job that wrote a PNG variant, rewritten to name those bytes.
        var poisoned: String?
        for name in setting.storedFiles() where name.hasPrefix("ac/") && poisoned == nil {
            let path = "\(setting.store)/\(name)"
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard case .inline(let record) = RemoteActionRecord.read(bytes).record, var entry = ActionEntry.parse(record),
                  let index = entry.outputs.firstIndex(where: { $0.path.hasPrefix("variants/") && $0.path.hasSuffix(".png") })
            else { continue }
            entry.outputs[index].sha256 = attackHash
            entry.outputs[index].size = attack.count
            let rewritten = RemoteActionRecord.encode(record: try entry.serialised(), outputs: entry.outputs.map {
                RemoteActionRecord.Output(path: $0.path, sha256: $0.sha256, size: $0.size, contents: nil)
            })
            try Data(rewritten).write(to: URL(fileURLWithPath: path))
            poisoned = entry.outputs[index].path
        }
        return (try #require(poisoned), attackHash)
    }
}
