@testable import BuildCache
import Foundation
import Testing
import TestServers
import TesseraCore

@Suite("The remote cache's key index", .serialized)
struct RemoteKeyIndexTests {
    private static func key(_ text: String) -> ContentHash { ContentHash.of(Array(text.utf8)) }

    @Test("new keys come first in key order at their place, listed once, and the oldest go past the limit; the bytes read back")
    func listingOrderAndRoundTrip() throws {
        let pack = Self.key("pack")
        let old = RemoteKeyIndex().listing([Self.key("a"), Self.key("b")])
        let new = old.listing([Self.key("c"), Self.key("a")], at: .pack(pack))
        let expected = [Self.key("a"), Self.key("c")].map(RemoteKeyIndex.prefix).sorted() + [RemoteKeyIndex.prefix(Self.key("b"))]
        #expect(new.prefixes == expected)
        #expect(new.location(of: Self.key("b")) == .entry && new.location(of: Self.key("d")) == nil)
        #expect(new.location(of: Self.key("a")) == .pack(pack) && new.location(of: Self.key("c")) == .pack(pack))
        #expect(new.listsEntries && !RemoteKeyIndex().listing([Self.key("a")], at: .pack(pack)).listsEntries)
        #expect(RemoteKeyIndex.parse(new.serialised()) == new)
        #expect(RemoteKeyIndex.parse(old.serialised()) == old)
        #expect(old.listing([Self.key("b"), Self.key("a")]) == old.listing([Self.key("a"), Self.key("b")]))
        var damaged = new.serialised()
        damaged[damaged.count - 3] ^= 1
        #expect(RemoteKeyIndex.parse(damaged) == nil)
        let many = RemoteKeyIndex().listing((0..<(RemoteKeyIndex.limit + 10)).map { Self.key(String($0)) })
        #expect(many.prefixes.count == RemoteKeyIndex.limit)
    }

    @Test("a build against a cold cache asks for no per-job entry; a clone with one source changed hits the rest through the index")
    func coldCacheSkipsLookups() async throws {
        let setting = try await RemoteStoreSetting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        let store = "\(setting.store)/cache"
        let fillRemote = RemoteCache(base: server.baseURL.appendingPathComponent("cache"))
        let fill = try await setting.workspace.build(into: "\(setting.workspace.root)/one",
                                                     cache: try setting.freshCache("local-one", remote: fillRemote))
        #expect(fill.report.warnings.filter { $0.stage == .cache }.isEmpty)
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(store)/ac").count
        let blobs = try FileManager.default.contentsOfDirectory(atPath: "\(store)/cas").count
        // The pack, the plan record and the index are the only entries (the jobs' are in the
        // pack); a HEAD and a PUT per blob, and a handful of lookups (plan record, pack, key
        // index twice): no request per job.
        #expect(entries == 3)
        #expect(fillRemote.requestCount <= entries + 2 * blobs + 6, "\(fillRemote.requestCount) requests")
        let index = try #require(StoredRecords.record(in: store, name: RemoteKeyIndex.key.hex).flatMap(RemoteKeyIndex.parse))
        #expect(!index.prefixes.isEmpty && !index.listsEntries, "every job placed in the pack")

        // Another checkout with one source changed: no pack of its own jobs, so the index sends
        // it to the pack of the build before for the rest. (It stores no pack, so its new jobs'
        // entries are their own, and the third build below has no pack either.)
        try setting.workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        let clone = try await setting.workspace.build(
            into: "\(setting.workspace.root)/two",
            cache: try setting.freshCache("local-two", remote: RemoteCache(base: server.baseURL.appendingPathComponent("cache"), storesPacks: false)))
        #expect(clone.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect((clone.report.cache?[.write]?.hits ?? 0) > 0)
        #expect((clone.report.cache?[.write]?.misses ?? 0) > 0)
        // The changed asset's entries are listed now too.
        let updated = try #require(StoredRecords.record(in: store, name: RemoteKeyIndex.key.hex).flatMap(RemoteKeyIndex.parse))
        #expect(updated.prefixes.count > index.prefixes.count && index.prefixes.allSatisfy(Set(updated.prefixes).contains))

        // Without the index (another tool emptied it), the entries are not looked for: the build
        // runs its jobs and is still right, and lists them again.
        try FileManager.default.removeItem(atPath: "\(store)/ac/\(RemoteKeyIndex.key.hex)")
        let third = try await setting.workspace.build(into: "\(setting.workspace.root)/three",
                                                      cache: try setting.freshCache("local-three", remote: RemoteCache(base: server.baseURL.appendingPathComponent("cache"))))
        #expect(third.exitStatus == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/three") == setting.workspace.outputs("\(setting.workspace.root)/two"))
        #expect(FileManager.default.fileExists(atPath: "\(store)/ac/\(RemoteKeyIndex.key.hex)"))
    }
}
