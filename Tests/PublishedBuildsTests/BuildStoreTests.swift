import Foundation
import PublishedBuilds
import TestServers
import Testing
import TesseraCore

/// One store suite for every `BuildStore`: each test runs against each backend.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// A real PostgreSQL 15 in a temporary data folder, one per test.
    case postgres

    var testDescription: String { rawValue }

    /// A fresh, empty store; `cleanup` removes what it made (and stops its server).
    func make() async throws -> (store: any BuildStore, cleanup: @Sendable () -> Void) {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)").path
            let store = try SQLiteBuildStore(path: "\(folder)/catalog.sqlite")
            return (store, { try? FileManager.default.removeItem(atPath: folder) })
        case .postgres:
            let server = try PostgresServer()
            do {
                let store = try await PostgresBuildStore(url: server.url)
                return (store, { server.stop() })
            } catch {
                server.stop()
                throw error
            }
        }
    }
}

func digest(_ text: String) -> ContentHash { ContentHash.of(Array(text.utf8)) }

@Suite("Build store")
struct BuildStoreTests {
    @Test("a build registers as uploading once; registering again returns the same record", arguments: StoreBackend.allCases)
    func registerIsIdempotent(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        let blobs = [digest("b"), digest("a"), digest("b")]
        let first = try await store.registerBuild(id: "build1", pipeline: "p", blobs: blobs)
        #expect(first == BuildRecord(id: "build1", pipeline: "p", state: .uploading, blobs: [digest("a"), digest("b")].sorted()))
        let again = try await store.registerBuild(id: "build1", pipeline: "other", blobs: [])
        #expect(again == first)
        try await store.markComplete("build1")
        #expect(try await store.build("build1")?.state == .complete)
        #expect(try await store.build("nope") == nil)
        await #expect(throws: BuildStoreError.unknownBuild("nope")) { try await store.markComplete("nope") }
    }

    @Test("a channel moves only from the expected build, keeps history newest first", arguments: StoreBackend.allCases)
    func compareAndSwap(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        for id in ["one", "two", "three"] {
            _ = try await store.registerBuild(id: id, pipeline: "p", blobs: [])
            try await store.markComplete(id)
        }
        _ = try await store.moveChannel("beta", to: "one", expected: nil)
        await #expect(throws: BuildStoreError.conflict(channel: "beta", expected: nil, current: "one")) {
            try await store.moveChannel("beta", to: "two", expected: nil)
        }
        await #expect(throws: BuildStoreError.conflict(channel: "beta", expected: "two", current: "one")) {
            try await store.moveChannel("beta", to: "three", expected: "two")
        }
        let moved = try await store.moveChannel("beta", to: "two", expected: "one")
        #expect(moved.build == "two")
        let now = Int(Date().timeIntervalSince1970)
        #expect(moved.history.allSatisfy { ($0.movedAt ?? 0) > now - 60 && ($0.movedAt ?? .max) <= now + 1 })
        #expect(moved.history.map { ChannelEvent(sequence: $0.sequence, build: $0.build, previous: $0.previous, kind: $0.kind) }
                    == [ChannelEvent(sequence: 2, build: "two", previous: "one"), ChannelEvent(sequence: 1, build: "one", previous: nil)])
        #expect(try await store.channels().map(\.name) == ["beta"])
        #expect(try await store.channel("production") == nil)
    }

    @Test("rollbacks are recorded as such and walk back along the history (twice: two builds back; --to an earlier one); builds are found by unique prefix", arguments: StoreBackend.allCases)
    func rollbacksWalkBack(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        let ids = ["a1", "b2", "c3", "d4"].map { String(repeating: $0, count: 32) }
        for id in ids {
            _ = try await store.registerBuild(id: id, pipeline: "p", blobs: [])
            try await store.markComplete(id)
        }
        var state = try await store.moveChannel("prod", to: ids[0], expected: nil)
        for (index, id) in ids.dropFirst().enumerated() { state = try await store.moveChannel("prod", to: id, expected: ids[index]) }
        #expect(state.rollbackStack == [ids[2], ids[1], ids[0]])
        // Back twice: two builds back, not a toggle.
        state = try await store.moveChannel("prod", to: try #require(state.rollbackTarget()), expected: ids[3], kind: .rollback)
        #expect(state.build == ids[2] && state.history.first?.kind == .rollback)
        state = try await store.moveChannel("prod", to: try #require(state.rollbackTarget()), expected: ids[2], kind: .rollback)
        #expect(state.build == ids[1] && state.rollbackStack == [ids[0]])
        // A promotion starts a new way back from there; --to reaches only builds on it.
        state = try await store.moveChannel("prod", to: ids[3], expected: ids[1])
        #expect(state.rollbackStack == [ids[1], ids[0]])
        #expect(state.rollbackTarget(to: ids[0]) == ids[0] && state.rollbackTarget(to: ids[2]) == nil)
        // Reopened from the store, the history reads the same.
        #expect(try await store.channel("prod")?.rollbackStack == [ids[1], ids[0]])
        #expect(try await store.builds(withPrefix: "a1a1", limit: 10) == [ids[0]])
        #expect(try await store.builds(withPrefix: "A1A1", limit: 10) == [ids[0]])
        #expect(try await store.builds(withPrefix: "ffff", limit: 10).isEmpty)
        #expect(try await store.builds(withPrefix: "%", limit: 10).isEmpty)
    }

    @Test("of concurrent moves from the same build exactly one wins", arguments: StoreBackend.allCases)
    func concurrentMoves(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        for id in ["base"] + (0..<8).map({ "candidate\($0)" }) {
            _ = try await store.registerBuild(id: id, pipeline: "p", blobs: [])
            try await store.markComplete(id)
        }
        _ = try await store.moveChannel("production", to: "base", expected: nil)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    do {
                        _ = try await store.moveChannel("production", to: "candidate\(index)", expected: "base")
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.channel("production")?.history.count == 2)
    }

    @Test("only complete, known builds can go on a channel", arguments: StoreBackend.allCases)
    func onlyCompleteBuilds(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        _ = try await store.registerBuild(id: "half", pipeline: "p", blobs: [digest("x")])
        await #expect(throws: BuildStoreError.buildIncomplete("half")) { try await store.moveChannel("beta", to: "half", expected: nil) }
        await #expect(throws: BuildStoreError.unknownBuild("ghost")) { try await store.moveChannel("beta", to: "ghost", expected: nil) }
        #expect(try await store.channel("beta") == nil)
    }
}

@Suite("SQLite build store file")
struct SQLiteBuildStoreFileTests {
    @Test("a build's signature is kept per channel, replaced by a later one, absent for other channels; unknown builds refused", arguments: StoreBackend.allCases)
    func signaturesPerChannel(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        _ = try await store.registerBuild(id: "one", pipeline: "p", blobs: [])
        #expect(try await store.signature(build: "one", channel: "production") == nil)
        try await store.putSignature(ChannelSignature(sidecar: #"{"v":1}"#, version: 1), build: "one", channel: "production")
        try await store.putSignature(ChannelSignature(sidecar: #"{"v":"staging"}"#, version: 1), build: "one", channel: "staging")
        try await store.putSignature(ChannelSignature(sidecar: #"{"v":2}"#, version: 2), build: "one", channel: "production")
        #expect(try await store.signature(build: "one", channel: "production") == #"{"v":2}"#)
        #expect(try await store.signature(build: "one", channel: "staging") == #"{"v":"staging"}"#)
        #expect(try await store.signature(build: "one", channel: "nightly") == nil)
        await #expect(throws: BuildStoreError.unknownBuild("nope")) {
            try await store.putSignature(ChannelSignature(sidecar: "{}", version: 1), build: "nope", channel: "production")
        }
    }

    @Test("reopening a build store keeps its builds and channels (migrations apply once)")
    func reopen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let store = try SQLiteBuildStore(path: "\(folder)/c.sqlite")
            _ = try await store.registerBuild(id: "one", pipeline: "p", blobs: [digest("a")])
            try await store.markComplete("one")
            _ = try await store.moveChannel("production", to: "one", expected: nil)
        }
        // The first store's lock goes when its last reference does, which an async call's frame
        // may hold a moment past the scope: wait for it, a bounded while.
        var reopened: SQLiteBuildStore?
        for _ in 0..<50 where reopened == nil {
            reopened = try? SQLiteBuildStore(path: "\(folder)/c.sqlite")
            if reopened == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let store = try #require(reopened, "the first store's lock was never released")
        #expect(try await store.channel("production")?.build == "one")
        #expect(try await store.build("one")?.blobs == [digest("a")])
    }

    @Test("a second instance on one SQLite build store is refused, naming the file; the first keeps working")
    func secondInstanceRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/c.sqlite"
        let first = try SQLiteBuildStore(path: path)
        do {
            _ = try SQLiteBuildStore(path: path)
            Issue.record("a second store opened the same file")
        } catch {
            #expect(error.file == path)
            #expect(error.reason.contains("another instance") && error.reason.contains("postgres://"))
        }
        _ = try await first.registerBuild(id: "one", pipeline: "p", blobs: [digest("a")])
        #expect(try await first.build("one") != nil)
    }

    @Test("a build-store path that cannot be created is a clear error naming it")
    func badPath() async throws {
        #expect(throws: TesseraError.self) { try SQLiteBuildStore(path: "/proc/nope/catalog.sqlite") }
        do {
            _ = try await BuildStoreLocation.open("mysql://x")
            Issue.record("expected an error")
        } catch {
            #expect(error.reason.contains("sqlite:PATH"))
        }
    }
}

@Suite("Blob store")
struct BlobStoreTests {
    @Test("a blob whose bytes do not hash to its name is refused and leaves nothing behind")
    func mismatchRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-blobs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try BlobStore(root: root)
        let name = digest("right")
        #expect(throws: TesseraError.self) { try store.put(Array("wrong".utf8), as: name) }
        #expect(!store.contains(name))
        try store.put(Array("right".utf8), as: name)
        #expect(store.read(name) == Array("right".utf8))
        #expect(store.mismatchedBlobs().isEmpty)
        let folder = (store.path(of: name) as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name.hex])
    }

    @Test("a blob over the limit is refused while streaming")
    func limit() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-blobs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try BlobStore(root: root)
        let upload = try store.begin(digest("0123456789"), limit: 4)
        #expect(throws: TesseraError.self) { try upload.append(Array("0123456789".utf8)) }
        #expect(!store.contains(digest("0123456789")))
    }
}
