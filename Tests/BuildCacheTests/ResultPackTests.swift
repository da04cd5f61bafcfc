@testable import BuildCache
import Foundation
import Testing
import TestServers
import TesseraCore

/// Result packs (`ResultPack`) against a real nginx (WebDAV PUT) on loopback.
@Suite("Result packs in the remote cache", .serialized)
struct ResultPackTests {
    /// `RemoteStoreSetting` served by nginx, filled by a build through a fresh local cache.
    private struct FilledStore {
        let setting: RemoteStoreSetting
        let server: NginxServer
        var workspace: CacheWorkspace { setting.workspace }
        var reference: [String: Data] { setting.reference }
        var store: String { setting.store }

        init() async throws {
            setting = try await RemoteStoreSetting()
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
            let fill = try await setting.workspace.build(into: "\(setting.workspace.root)/one", cache: try cache("local-one"))
            #expect(fill.report.warnings.filter { $0.stage == .cache }.isEmpty)
        }

        func cache(_ name: String) throws -> BuildCache {
            try setting.freshCache(name, remote: RemoteCache(base: server.baseURL))
        }

        func names(_ folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "\(store)/\(folder)").sorted()
        }

        /// The Tessera record the `/ac/` entry `name` names (an `ActionResult` whose record is
        /// inline or a CAS blob).
        func record(_ name: String) -> [UInt8]? {
            StoredRecords.record(in: store, name: name)
        }

        /// Names of the store's plan records: checked records that are neither entries nor packs.
        func planRecords() throws -> [String] {
            try names("ac").filter { name in
                guard let bytes = record(name) else { return false }
                return CheckedRecord.body(of: bytes) != nil && ActionEntry.parse(bytes) == nil && ResultPack.parse(bytes) == nil
                    && RemoteKeyIndex.parse(bytes) == nil
            }
        }

        /// The one pack in the store, and its name.
        func pack() throws -> (name: String, pack: ResultPack) {
            let packs = try names("ac").compactMap { name in
                record(name).flatMap { ResultPack.parse($0) }.map { (name, $0) }
            }
            try #require(packs.count == 1)
            return packs[0]
        }
    }

    @Test("a fresh clone restores a complete build from its pack, with every per-job entry and small blob gone")
    func cloneRestoresFromThePack() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let (packName, pack) = try filled.pack()
        #expect(!pack.segments.isEmpty)
        // On the server: the pack, the plan record of the build that filled the store, and the
        // key index placing every job in the pack; no entry of its own for any job.
        #expect(try filled.names("ac").count == 3)
        for name in try filled.names("ac") { #expect(StoredRecords.problem(in: filled.store, name: name) == nil, "\(name)") }
        let index = try #require(filled.record(RemoteKeyIndex.key.hex).flatMap(RemoteKeyIndex.parse))
        let packKey = try #require(ContentHash(hex: packName))
        #expect(pack.results.allSatisfy { index.location(of: $0.key) == .pack(packKey) })
        #expect(index.prefixes.count == pack.results.count)
        #expect(try filled.planRecords().count == 1)
        // Leave only the pack, its segments and the blobs too large for segments.
        let segments = Set(pack.segments.map(\.sha256.hex))
        for name in try filled.names("ac") where name != packName {
            try FileManager.default.removeItem(atPath: "\(filled.store)/ac/\(name)")
        }
        // Outputs of up to 64 KiB never were blobs of their own (they travel inline in their
        // entries); remove the others that segments hold too.
        for name in try filled.names("cas") where !segments.contains(name) {
            let path = "\(filled.store)/cas/\(name)"
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size > 64 << 10)
            if size <= ResultPack.segmentBlobLimit { try FileManager.default.removeItem(atPath: path) }
        }
        #expect(pack.results.flatMap(\.entry.outputs).filter { $0.size <= 64 << 10 }.count > 10)

        let clone = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        #expect(clone.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(clone.report.cache?.fileMisses == 0)
        #expect(clone.report.stages[.decode] == nil && clone.report.stages[.encode] == nil)
        #expect(filled.workspace.outputs("\(filled.workspace.root)/two") == filled.reference)
        // The clone's local cache keeps the pack as one file instead of an entry per job, and the
        // checked blobs.
        let local = CacheFolder(path: "\(filled.workspace.root)/local-two")
        let kept = try #require(FileManager.default.contents(atPath: local.pack(packKey)))
        #expect(ResultPack.parse([UInt8](kept)) == pack)
        for result in pack.results {
            #expect(!FileManager.default.fileExists(atPath: local.action(result.key)))
            for output in result.entry.outputs {
                let blob = try #require(FileManager.default.contents(atPath: local.blob(output.sha256)))
                #expect(ContentHash.of(blob) == output.sha256)
            }
        }
    }

    @Test("a damaged segment is a miss with one warning: each blob it damaged is made again by its job, and the clone is right")
    func damagedSegmentFallsBack() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let (_, pack) = try filled.pack()
        // Blobs are laid out by hash, so which blob a fixed offset hits changes with any output:
        // each segment is damaged inside a blob the store holds only in the segment (one that
        // must be made again by its job), where there is one.
        for segment in pack.segments {
            let path = "\(filled.store)/cas/\(segment.sha256.hex)"
            var bytes = try #require(FileManager.default.contents(atPath: path))
            var offset = 0, target = bytes.count / 2
            for blob in segment.blobs {
                if !FileManager.default.fileExists(atPath: "\(filled.store)/cas/\(blob.sha256.hex)") {
                    target = offset + blob.size / 2
                    break
                }
                offset += blob.size
            }
            bytes[target] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: path))
        }
        let clone = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        #expect(clone.exitStatus == 0)
        // Each segment's other blobs are checked one by one and kept; the job of each damaged one
        // runs (no job stored an entry of its own: the pack holds them all).
        let misses = clone.report.cache?.fileMisses ?? 0
        #expect(misses >= 1 && misses <= pack.segments.count, "\(misses) misses")
        #expect(filled.workspace.outputs("\(filled.workspace.root)/two") == filled.reference)
        let warnings = clone.report.warnings.filter { $0.stage == .cache }
        #expect(warnings.count == 1 && warnings.first?.reason.contains("do not match their hash") == true, "\(warnings)")
    }

    @Test("a blob damaged inside a segment is caught by its own hash: one warning, it is fetched on its own, nothing wrong is kept")
    func damagedBlobInsideASegmentIsCaught() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let (_, pack) = try filled.pack()
        // The last byte of a blob the store also holds on its own (blobs are laid out by hash, so
        // the first is any output): the segment's size is unchanged.
        let segment = try #require(pack.segments.first)
        let path = "\(filled.store)/cas/\(segment.sha256.hex)"
        var bytes = try #require(FileManager.default.contents(atPath: path))
        var end = 0
        for blob in segment.blobs {
            end += blob.size
            if FileManager.default.fileExists(atPath: "\(filled.store)/cas/\(blob.sha256.hex)") { break }
        }
        bytes[end - 1] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))

        let clone = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        #expect(clone.exitStatus == 0)
        #expect(clone.report.cache?.fileMisses == 0)
        #expect(filled.workspace.outputs("\(filled.workspace.root)/two") == filled.reference)
        let warnings = clone.report.warnings.filter { $0.stage == .cache }
        #expect(warnings.count == 1 && warnings.first?.reason.contains(segment.sha256.hex) == true, "\(warnings)")
        let local = CacheFolder(path: "\(filled.workspace.root)/local-two")
        for blob in segment.blobs {
            let kept = try #require(FileManager.default.contents(atPath: local.blob(blob.sha256)))
            #expect(ContentHash.of(kept) == blob.sha256)
        }
    }

    @Test("after a clone restored from the pack, a run with one changed source finds the rest in the kept pack and asks the server only for what changed")
    func runAfterAPackCloneMakesFewRequests() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let cloneRemote = RemoteCache(base: filled.server.baseURL, readOnly: true)
        let clone = try await filled.workspace.build(
            into: "\(filled.workspace.root)/two",
            cache: try filled.setting.freshCache("local-two", remote: cloneRemote))
        #expect(clone.report.cache?.fileMisses == 0)

        try filled.workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        let remote = RemoteCache(base: filled.server.baseURL, readOnly: true)
        let changed = try await filled.workspace.build(
            into: "\(filled.workspace.root)/two", cache: try filled.setting.freshCache("local-two", remote: remote))
        #expect(changed.exitStatus == 0)
        let counts = try #require(changed.report.cache)
        let misses = counts.values.reduce(0) { $0 + $1.misses }
        let hits = counts.values.reduce(0) { $0 + $1.hits }
        #expect(misses > 0 && hits > 0)
        // The pack of the new set of jobs (absent), then one entry per job that missed.
        #expect(remote.requestCount <= 1 + misses, "\(remote.requestCount) requests for \(misses) misses")
        #expect(changed.report.warnings.filter { $0.stage == .cache }.isEmpty)

        // The same run again is a no-op served by the local cache alone, with no request.
        let again = RemoteCache(base: filled.server.baseURL, readOnly: true)
        let noop = try await filled.workspace.build(
            into: "\(filled.workspace.root)/two", cache: try filled.setting.freshCache("local-two", remote: again))
        #expect(noop.report.cache?.values.reduce(0) { $0 + $1.misses } == 0)
        #expect(again.requestCount == 0)
    }

    @Test("a kept pack is one entry to stats and prune: a roomy prune keeps it and its blobs, a prune to nothing removes them")
    func keptPackIsPrunedAsOneEntry() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let clone = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        #expect(clone.report.cache?.fileMisses == 0)
        let local = CacheMaintenance(folder: CacheFolder(path: "\(filled.workspace.root)/local-two"))
        let before = local.statistics()
        // Only the jobs whose keys name the output folder (manifest, slice, publish) have entries of their own.
        #expect(before.packs == 1 && before.entries <= 3 && before.blobs > 10)

        let roomy = local.prune(maxBytes: 1 << 40)
        #expect(roomy.removedEntries == 0 && roomy.removedBlobs == 0)
        #expect(local.statistics() == before)
        let again = RemoteCache(base: filled.server.baseURL, readOnly: true)
        let noop = try await filled.workspace.build(
            into: "\(filled.workspace.root)/two", cache: try filled.setting.freshCache("local-two", remote: again))
        #expect(noop.report.cache?.values.reduce(0) { $0 + $1.misses } == 0)
        #expect(again.requestCount == 0)

        let emptied = local.prune(maxBytes: 0)
        #expect(before.plans == 1)
        #expect(emptied.removedEntries == before.entries + before.packs + before.plans && emptied.removedBlobs == before.blobs)
        #expect(local.statistics().packs == 0 && local.statistics().plans == 0 && local.statistics().blobs == 0)
    }

    @Test("a damaged kept pack is deleted and the run takes the server's pack again, with no warning")
    func damagedKeptPackFallsBackToTheServer() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let (packName, _) = try filled.pack()
        _ = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        let packKey = try #require(ContentHash(hex: packName))
        let kept = CacheFolder(path: "\(filled.workspace.root)/local-two").pack(packKey)
        var bytes = try #require(FileManager.default.contents(atPath: kept))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: kept))
        try FileManager.default.removeItem(atPath: "\(filled.workspace.root)/two")

        let again = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        #expect(again.report.cache?.fileMisses == 0)
        #expect(again.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(filled.workspace.outputs("\(filled.workspace.root)/two") == filled.reference)
        let replaced = try #require(FileManager.default.contents(atPath: kept))
        #expect(ResultPack.parse([UInt8](replaced)) != nil)
    }

    @Test("a build whose pack the server has uploads nothing again; one with a changed source stores a second pack")
    func packsAreStoredOncePerSetOfJobs() async throws {
        let filled = try await FilledStore()
        defer { filled.server.stop() }
        let entriesBefore = try filled.names("ac"), blobsBefore = try filled.names("cas")
        _ = try await filled.workspace.build(into: "\(filled.workspace.root)/two", cache: try filled.cache("local-two"))
        // Nothing but the plan record of a build into another output folder (its key names the folder).
        let added = try filled.names("ac").filter { !entriesBefore.contains($0) }
        let records = try filled.planRecords()
        #expect(added.count == 1 && records.contains(added[0]))
        #expect(try filled.names("cas") == blobsBefore)

        try filled.workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        _ = try await filled.workspace.build(into: "\(filled.workspace.root)/three", cache: try filled.cache("local-two"))
        let packs = try filled.names("ac").filter { name in filled.record(name).flatMap { ResultPack.parse($0) } != nil }
        #expect(packs.count == 2)
    }

    @Test("segments are laid out by SHA-256: changing one blob changes at most two segments, whatever the order given")
    func layoutIsStable() {
        // About 90 MB: 16 segments of about 6 MB.
        let blobs = (0..<3000).map { index in
            ResultPack.Blob(sha256: ContentHash.of(Array("blob \(index)".utf8)), size: 20_000 + index * 7919 % 20_000)
        } + [ResultPack.Blob(sha256: ContentHash.of(Array("large".utf8)), size: ResultPack.segmentBlobLimit + 1)]
        let layout = ResultPack.layout(blobs)
        #expect(ResultPack.layout(blobs.reversed()) == layout)
        #expect(layout.count == 16)
        #expect(layout.allSatisfy { group in group.allSatisfy { $0.size <= ResultPack.segmentBlobLimit } })
        #expect(layout.flatMap { $0 }.count == 3000)
        #expect(layout.allSatisfy { $0.map(\.sha256) == $0.map(\.sha256).sorted() })

        var changed = blobs
        changed[1234] = ResultPack.Blob(sha256: ContentHash.of(Array("blob 1234, edited".utf8)), size: blobs[1234].size + 1)
        let other = ResultPack.layout(changed)
        let differing = Set(layout.map { $0.map(\.sha256) }).symmetricDifference(Set(other.map { $0.map(\.sha256) }))
        #expect(differing.count <= 4)
    }
}
