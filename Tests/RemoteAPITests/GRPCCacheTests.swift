import BuildCache
import Foundation
import JobEngine
import Pipeline
@testable import RemoteAPI
import Synchronization
import Testing
import TestServers
import TesseraCore

/// The remote cache over gRPC against real servers: buildbox-casd and BuildGrid 0.9.1 cache-only.
@Suite("The gRPC remote cache", .serialized)
struct GRPCCacheTests {
    enum Server: String, CaseIterable, Sendable {
        case casd, buildGrid
    }

    /// A server of this kind, its URL, and how to stop it.
    private static func start(_ kind: Server) throws -> (url: String, stop: @Sendable () -> Void) {
        switch kind {
        case .casd:
            let server = try CASDServer()
            return (server.url, { server.stop() })
        case .buildGrid:
            let server = try BuildGridServer(mode: .cacheOnly)
            return (server.url, { server.stop() })
        }
    }

    private static func remote(_ url: String, storesPacks: Bool = true, inlineLimit: Int = 64 << 10) throws -> RemoteCache {
        try RemoteCache.reapi(try #require(RemoteEndpoint(url: url)), inlineLimit: inlineLimit, storesPacks: storesPacks)
    }

    @Test("a build stores to the server; a fresh checkout restores from it byte-identical, running no per-file job (packs, and entries with every output a CAS blob)",
          arguments: Server.allCases)
    func restoresFromServer(_ kind: Server) async throws {
        let workspace = try await GRPCWorkspace()
        let server = try Self.start(kind)
        defer { server.stop() }
        for (name, packs, inline) in [("packs", true, 64 << 10), ("entries", false, 0)] {
            let first = try await workspace.build(into: "\(name)-one",
                                                  cache: try workspace.freshCache("\(name)-one", remote: try Self.remote(server.url, storesPacks: packs, inlineLimit: inline)))
            #expect(first.cacheWarnings.isEmpty, "\(first.cacheWarnings)")
            #expect(first.exitStatus == 0 && workspace.outputs("\(name)-one") == workspace.reference)
            let remote = try Self.remote(server.url, storesPacks: packs, inlineLimit: inline)
            let second = try await workspace.build(into: "\(name)-two", cache: try workspace.freshCache("\(name)-two", remote: remote))
            #expect(second.cacheWarnings.isEmpty, "\(second.cacheWarnings)")
            #expect(second.fileMisses == 0, "\(String(describing: second.report.cache))")
            #expect(second.report.stages[.decode] == nil && second.report.stages[.encode] == nil)
            #expect(workspace.outputs("\(name)-two") == workspace.reference)
            #expect(remote.requestCount > 0)
        }
    }

    @Test("HTTP and gRPC hold the same entries: every ac/<key> nginx holds is the ActionResult casd returns for that key, byte for byte, and its blobs; entries copied from nginx restore a build over gRPC")
    func sameEntriesOverHTTPAndGRPC() async throws {
        let workspace = try await GRPCWorkspace()
        let store = "\(workspace.root)/dav"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let nginx = try NginxServer(serving: URL(fileURLWithPath: store), webDAV: true)
        defer { nginx.stop() }
        let casd = try CASDServer()
        defer { casd.stop() }
        // The same build (no inline outputs, so there are blobs; the same output folder, so even the gather and manifest keys agree) into each.
        let overHTTP = try await workspace.build(into: "out", cache: try workspace.freshCache(
            "http", remote: RemoteCache(base: nginx.baseURL.appendingPathComponent("cache"), inlineLimit: 0, storesPacks: false)))
        #expect(overHTTP.cacheWarnings.isEmpty, "\(overHTTP.cacheWarnings)")
        let overGRPC = try await workspace.build(into: "out", cache: try workspace.freshCache("grpc", remote: try Self.remote(casd.url, storesPacks: false, inlineLimit: 0)))
        #expect(overGRPC.cacheWarnings.isEmpty, "\(overGRPC.cacheWarnings)")

        let connection = try RemoteConnection(endpoint: try #require(RemoteEndpoint(url: casd.url)))
        let actions = ActionCacheClient(connection: connection)
        let contents = ContentStore(connection: connection)
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(store)/cache/ac")
        let blobs = try FileManager.default.contentsOfDirectory(atPath: "\(store)/cache/cas")
        #expect(entries.count >= 8 && !blobs.isEmpty)
        for name in entries {
            let key = try #require(ContentHash(hex: name))
            let overHTTPBytes = try #require(FileManager.default.contents(atPath: "\(store)/cache/ac/\(name)"))
            let result = try await actions.result(for: REAPITransport.actionDigest(key))
            let overGRPCBytes = try #require(result, "ac/\(name) is not in casd").serializedData()
            #expect(overGRPCBytes == overHTTPBytes, "ac/\(name)")
        }
        var digests: [REAPIDigest] = []
        for name in blobs {
            let bytes = try #require(FileManager.default.contents(atPath: "\(store)/cache/cas/\(name)"))
            #expect(ContentHash.of(bytes).hex == name)
            digests.append(REAPIDigest(of: bytes))
        }
        #expect(try await contents.findMissing(digests).isEmpty)
        for digest in digests.prefix(20) {
            let collected = Collector()
            let reading = try #require(try await contents.stream(digest) { collected.add($0) })
            #expect(reading.hash.hex == digest.hash && collected.data.count == Int(digest.sizeBytes))
        }

        // nginx's entries and blobs copied into a fresh casd through the gRPC transport: a fresh
        // checkout restores from them over gRPC.
        let fresh = try CASDServer()
        defer { fresh.stop() }
        let transport = REAPITransport(connection: try RemoteConnection(endpoint: try #require(RemoteEndpoint(url: fresh.url))))
        for name in blobs {
            let path = "\(store)/cache/cas/\(name)"
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(try transport.write(.blob(try #require(ContentHash(hex: name)), size: size),
                                        .file(path, size: size, hash: ContentHash(hex: name))))
        }
        for name in entries {
            let bytes = try #require(FileManager.default.contents(atPath: "\(store)/cache/ac/\(name)"))
            #expect(try transport.write(.action(try #require(ContentHash(hex: name))), .bytes([UInt8](bytes))))
        }
        let restored = try await workspace.build(into: "restored", cache: try workspace.freshCache("restored", remote: try Self.remote(fresh.url)))
        #expect(restored.cacheWarnings.isEmpty, "\(restored.cacheWarnings)")
        #expect(restored.fileMisses == 0, "\(String(describing: restored.report.cache))")
        #expect(workspace.outputs("restored") == workspace.reference)
    }

    @Test("an unreachable port is one warning at once, not a timeout per lookup, and the build is right")
    func unreachablePort() async throws {
        let workspace = try await GRPCWorkspace()
        let port = try LoopbackPort.free()
        let started = ContinuousClock.now
        let outcome = try await workspace.build(into: "out", cache: try workspace.freshCache("local", remote: try Self.remote("grpc://127.0.0.1:\(port)")))
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(outcome.cacheWarnings.count == 1, "\(outcome.cacheWarnings)")
        #expect(outcome.cacheWarnings.first?.contains("connecting to grpc://127.0.0.1:\(port) failed (Connection refused)") == true,
                "\(outcome.cacheWarnings)")
        #expect(workspace.outputs("out") == workspace.reference)
    }

    @Test("a server that answers every call with an error (casd serving another instance: INVALID_ARGUMENT) is one warning, and the build is right")
    func everyCallFails() async throws {
        let workspace = try await GRPCWorkspace()
        let casd = try CASDServer(instance: "elsewhere")
        defer { casd.stop() }
        let outcome = try await workspace.build(into: "out", cache: try workspace.freshCache("local", remote: try Self.remote(casd.url)))
        #expect(outcome.cacheWarnings.count == 1, "\(outcome.cacheWarnings)")
        #expect(outcome.cacheWarnings.first?.contains("cannot be used: GetCapabilities failed: INVALID_ARGUMENT: Invalid instance name") == true,
                "\(outcome.cacheWarnings)")
        #expect(workspace.outputs("out") == workspace.reference)
    }

    @Test("a server killed before the build (the cache it filled gone with it) is one warning; the build runs every job and is right")
    func killedBeforeBuild() async throws {
        let workspace = try await GRPCWorkspace()
        let casd = try CASDServer()
        defer { casd.stop() }
        _ = try await workspace.build(into: "fill", cache: try workspace.freshCache("fill", remote: try Self.remote(casd.url)))
        casd.kill()
        let outcome = try await workspace.build(into: "out", cache: try workspace.freshCache("local", remote: try Self.remote(casd.url)))
        #expect(outcome.cacheWarnings.count == 1, "\(outcome.cacheWarnings)")
        #expect(outcome.cacheWarnings.first?.contains("failed") == true, "\(outcome.cacheWarnings)")
        #expect(workspace.outputs("out") == workspace.reference)
    }

    @Test("a server killed in the middle of a build (UNAVAILABLE from then on) is one warning, and the build is right",
          arguments: Server.allCases)
    func killedMidBuild(_ kind: Server) async throws {
        let workspace = try await GRPCWorkspace()
        let kill: @Sendable () -> Void
        let url: String
        let stop: @Sendable () -> Void
        switch kind {
        case .casd:
            let server = try CASDServer()
            (url, kill, stop) = (server.url, { server.kill() }, { server.stop() })
        case .buildGrid:
            let server = try BuildGridServer(mode: .cacheOnly)
            (url, kill, stop) = (server.url, { server.kill() }, { server.stop() })
        }
        defer { stop() }
        let killer = KillAfterFirstJob(kill)
        let outcome = try await workspace.build(into: "out", cache: try workspace.freshCache("local", remote: try Self.remote(url, storesPacks: false)),
                                                observer: killer)
        #expect(killer.killed)
        #expect(outcome.cacheWarnings.count == 1, "\(outcome.cacheWarnings)")
        #expect(outcome.cacheWarnings.first?.contains("UNAVAILABLE") == true, "\(outcome.cacheWarnings)")
        #expect(workspace.outputs("out") == workspace.reference)
    }

    @Test("blobs whose bytes do not match their digest (damaged in casd's own store) are misses with one warning; the build is right")
    func damagedBlobs() async throws {
        let workspace = try await GRPCWorkspace()
        let casd = try CASDServer()
        defer { casd.stop() }
        // Every output a CAS blob (nothing inline), one entry per job.
        _ = try await workspace.build(into: "fill", cache: try workspace.freshCache("fill", remote: try Self.remote(casd.url, storesPacks: false, inlineLimit: 0)))
        let objects = casd.workFolder.appendingPathComponent("cache/cas/objects").path
        var damaged = 0
        for name in FileManager.default.enumerator(atPath: objects)?.allObjects as? [String] ?? [] {
            let path = "\(objects)/\(name)"
            guard var bytes = FileManager.default.contents(atPath: path), bytes.count > 64 else { continue }
            // The same length, other bytes: only a hash check tells.
            bytes[bytes.count / 2] ^= 0xFF
            // casd stores objects read-only and hard-links them: replace the file, do not write through it.
            try FileManager.default.removeItem(atPath: path)
            try bytes.write(to: URL(fileURLWithPath: path))
            damaged += 1
        }
        #expect(damaged > 3)
        let outcome = try await workspace.build(into: "out", cache: try workspace.freshCache("local", remote: try Self.remote(casd.url, storesPacks: false, inlineLimit: 0)))
        #expect(outcome.cacheWarnings.count == 1, "\(outcome.cacheWarnings)")
        #expect(outcome.cacheWarnings.first?.contains("do not match their hash") == true, "\(outcome.cacheWarnings)")
        #expect(workspace.outputs("out") == workspace.reference)
    }
}

/// Kills the server once the first job has finished.
final class KillAfterFirstJob: SchedulerObserver {
    private let kill: @Sendable () -> Void
    private let done = Mutex(false)

    init(_ kill: @escaping @Sendable () -> Void) { self.kill = kill }

    var killed: Bool { done.withLock { $0 } }

    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        guard case .finished = event else { return }
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { kill() }
    }
}
