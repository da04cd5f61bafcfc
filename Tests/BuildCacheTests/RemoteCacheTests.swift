import BuildCache
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import JobEngine
import Pipeline
import Testing
import TestServers
import TesseraCore

/// Against a real nginx (WebDAV PUT) on loopback, started from a temporary folder and stopped by pid.
@Suite("The Bazel HTTP remote cache", .serialized)
struct RemoteCacheTests {
    private typealias Setting = RemoteStoreSetting

    @Test("a fresh clone with a warm remote cache restores every file, and the store holds only checked blobs")
    func warmRemoteCache() async throws {
        let setting = try await Setting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        let remote = { RemoteCache(base: server.baseURL.appendingPathComponent("cache")) }
        let store = "\(setting.store)/cache"

        let first = try await setting.workspace.build(into: "\(setting.workspace.root)/one",
                                                      cache: try setting.freshCache("local-one", remote: remote()))
        #expect(first.report.warnings.filter { $0.stage == .cache }.isEmpty)
        let blobs = try FileManager.default.contentsOfDirectory(atPath: "\(store)/cas")
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(store)/ac")
        #expect(!blobs.isEmpty && !entries.isEmpty)
        for name in blobs {
            #expect(ContentHash.of(try #require(FileManager.default.contents(atPath: "\(store)/cas/\(name)"))).hex == name)
        }

        let second = try await setting.workspace.build(into: "\(setting.workspace.root)/two",
                                                       cache: try setting.freshCache("local-two", remote: remote()))
        #expect(second.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(second.report.cache?.fileMisses == 0)
        #expect(second.report.stages[.decode] == nil && second.report.stages[.encode] == nil)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
    }

    @Test("a clone's restored outputs are files of their own, and afterwards its local cache holds every blob: a run without the server restores all, and an output edited in place changes nothing else")
    func cloneKeepsEveryBlobApartFromItsOutputs() async throws {
        let setting = try await Setting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        let root = setting.workspace.root
        // Packs and no inline bytes (every blob arrives in a segment), then the plain per-entry protocol.
        for (name, remote) in [("packs", { RemoteCache(base: server.baseURL.appendingPathComponent("packs"), inlineLimit: 0) }),
                               ("entries", { RemoteCache(base: server.baseURL.appendingPathComponent("entries"), storesPacks: false) })] {
            _ = try await setting.workspace.build(into: "\(root)/\(name)-fill", cache: try setting.freshCache("\(name)-fill-cache", remote: remote()))
            let clone = try await setting.workspace.build(into: "\(root)/\(name)-clone",
                                                          cache: try setting.freshCache("\(name)-clone-cache", remote: remote()))
            #expect(clone.exitStatus == 0 && clone.report.cache?.fileMisses == 0)
            #expect(setting.workspace.outputs("\(root)/\(name)-clone") == setting.reference)
            let manifest = try #require(clone.manifest)
            let local = CacheFolder(path: "\(root)/\(name)-clone-cache")
            for variant in manifest.assets.flatMap(\.variants) {
                let output = "\(root)/\(name)-clone/\(variant.path)"
                let blob = "\(local.path)/cas/\(variant.sha256.hex.prefix(2))/\(variant.sha256.hex)"
                var outputInfo = stat(), blobInfo = stat()
                #expect(stat(output, &outputInfo) == 0 && outputInfo.st_nlink == 1, "\(output)")
                // Sources' byte copies are restored from the checkout; everything else is kept.
                if stat(blob, &blobInfo) == 0 {
                    #expect(blobInfo.st_ino != outputInfo.st_ino && blobInfo.st_nlink == 1, "\(blob)")
                }
            }
            // Without the server, a new folder is restored from the clone's local cache alone.
            let offline = try await setting.workspace.build(into: "\(root)/\(name)-offline",
                                                            cache: try BuildCache(folder: local))
            #expect(offline.report.cache?.fileMisses == 0)
            #expect(setting.workspace.outputs("\(root)/\(name)-offline") == setting.reference)
            // An in-place edit of the clone's output leaves the offline build's file and the blob whole.
            let variant = try #require(manifest.assets.first { $0.name.name == "photos/hopper" }?.variants.first)
            let handle = try #require(FileHandle(forWritingAtPath: "\(root)/\(name)-clone/\(variant.path)"))
            try handle.seek(toOffset: 40)
            try handle.write(contentsOf: Data([0xFF, 0x00, 0xFF]))
            try handle.close()
            #expect(setting.workspace.outputs("\(root)/\(name)-offline") == setting.reference)
            let again = try await setting.workspace.build(into: "\(root)/\(name)-again", cache: try BuildCache(folder: local))
            #expect(again.report.cache?.fileMisses == 0)
            #expect(setting.workspace.outputs("\(root)/\(name)-again") == setting.reference)
        }
        server.stop()
    }

    @Test("small outputs travel inside their remote entry: a clone restores them with their blobs gone from the server")
    func smallOutputsAreInline() async throws {
        let setting = try await Setting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        // No result pack: this pins the per-job entries' inline bytes.
        let remote = { RemoteCache(base: server.baseURL, storesPacks: false) }
        _ = try await setting.workspace.build(into: "\(setting.workspace.root)/one",
                                              cache: try setting.freshCache("local-one", remote: remote()))
        // Outputs of up to 64 KiB are never CAS blobs of their own: they travel in their entries.
        let blobs = (try? FileManager.default.contentsOfDirectory(atPath: "\(setting.store)/cas")) ?? []
        for name in blobs {
            let size = try #require(FileManager.default.attributesOfItem(atPath: "\(setting.store)/cas/\(name)")[.size] as? Int)
            #expect(size > 64 << 10, "\(name) is \(size) bytes")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(setting.store)/ac").count > 10)

        let second = try await setting.workspace.build(into: "\(setting.workspace.root)/two",
                                                       cache: try setting.freshCache("local-two", remote: remote()))
        #expect(second.report.warnings.filter { $0.stage == .cache }.isEmpty)
        #expect(second.report.cache?.fileMisses == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
        // The local entries do not keep the inline bytes: the blobs hold them.
        let entries = "\(setting.workspace.root)/local-two/ac"
        let names = (FileManager.default.enumerator(atPath: entries)?.allObjects as? [String] ?? []).filter { $0.count > 60 }
        #expect(!names.isEmpty)
        for name in names {
            #expect(!(try String(contentsOfFile: "\(entries)/\(name)", encoding: .utf8)).contains("\"contents\""))
        }
    }

    @Test("a read-only remote cache is read but never written")
    func readOnlyNeverWrites() async throws {
        let setting = try await Setting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        defer { server.stop() }
        _ = try await setting.workspace.build(into: "\(setting.workspace.root)/one",
                                              cache: try setting.freshCache("local-one", remote: RemoteCache(base: server.baseURL)))
        let before = setting.storedFiles()
        try setting.workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        let readOnly = try await setting.workspace.build(
            into: "\(setting.workspace.root)/two",
            cache: try setting.freshCache("local-two", remote: RemoteCache(base: server.baseURL, readOnly: true)))
        #expect(readOnly.exitStatus == 0)
        #expect((readOnly.report.cache?[.write]?.hits ?? 0) > 0)
        #expect((readOnly.report.cache?[.write]?.misses ?? 0) > 0)
        #expect(setting.storedFiles() == before)
    }

    @Test("credentials from the environment are sent; without them the server's refusal is a miss with one warning")
    func credentialsFromTheEnvironment() async throws {
        let setting = try await Setting()
        let server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true, extraServerDirectives: [
            #"if ($http_authorization != "Bearer s3cret") { return 401; }"#,
        ])
        defer { server.stop() }
        let header = RemoteCache.authorization(from: ["TESSERA_REMOTE_CACHE_TOKEN": "s3cret"])
        #expect(header == "Bearer s3cret")
        #expect(RemoteCache.authorization(from: ["TESSERA_REMOTE_CACHE_USER": "ci", "TESSERA_REMOTE_CACHE_PASSWORD": "pw"])
            == "Basic " + Data("ci:pw".utf8).base64EncodedString())

        let refused = try await setting.workspace.build(
            into: "\(setting.workspace.root)/refused",
            cache: try setting.freshCache("local-refused", remote: RemoteCache(base: server.baseURL)))
        #expect(refused.exitStatus == 0)
        #expect(refused.report.warnings.filter { $0.stage == .cache }.count == 1)
        #expect(refused.report.warnings.contains { $0.reason.contains("HTTP 401") })
        #expect(setting.storedFiles().isEmpty)

        _ = try await setting.workspace.build(
            into: "\(setting.workspace.root)/one",
            cache: try setting.freshCache("local-one", remote: RemoteCache(base: server.baseURL, authorization: header)))
        #expect(!setting.storedFiles().isEmpty)
        let warm = try await setting.workspace.build(
            into: "\(setting.workspace.root)/two",
            cache: try setting.freshCache("local-two", remote: RemoteCache(base: server.baseURL, authorization: header)))
        #expect(warm.report.cache?.fileMisses == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
    }

    enum Fault: String, CaseIterable, Sendable {
        /// Every request answered with HTTP 500.
        case serverErrors
        /// Blobs trickle out at one byte a second: the body stops mid-way until the client's timeout.
        case stalledBody
        /// nginx sends a blob's headers, then closes the connection part-way through its body (its
        /// upstream, itself rate-limited, times out).
        case droppedMidBody
        /// The server is gone: connections refused.
        case serverDown
        /// Every blob in the store replaced by other bytes.
        case wrongBlobs
        /// Every entry under `ac/` with one byte flipped in the middle.
        case corruptEntries
    }

    @Test("a failing remote cache is a miss with one warning: the build succeeds with the right bytes", arguments: Fault.allCases)
    func faultsAreMisses(_ fault: Fault) async throws {
        let setting = try await Setting()
        // Fill the store through a well-behaved server first, with no bytes inline in the entries
        // and no result pack, so the clone fetches every blob through the faulty server.
        let healthy = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true)
        _ = try await setting.workspace.build(
            into: "\(setting.workspace.root)/one",
            cache: try setting.freshCache("local-one", remote: RemoteCache(base: healthy.baseURL, inlineLimit: 0,
                                                                           storesPacks: false)))
        let port = healthy.port
        healthy.stop()
        #expect(!setting.storedFiles().isEmpty)

        var server: NginxServer?
        switch fault {
        case .serverErrors:
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true,
                                     extraServerDirectives: ["return 500;"])
        case .stalledBody:
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true,
                                     extraServerDirectives: ["location /cas/ { limit_rate 1; }"])
        case .droppedMidBody:
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: true, extraServerDirectives: [
                "location /cas/ { proxy_pass http://127.0.0.1:$server_port/slow$request_uri; proxy_buffering off; proxy_read_timeout 300ms; }",
                "location /slow/ { alias \(setting.store)/; limit_rate_after 300; limit_rate 1; }",
            ])
        case .serverDown:
            server = nil
        case .wrongBlobs:
            for name in setting.storedFiles() where name.hasPrefix("cas/") {
                try Data("not the blob you asked for".utf8).write(to: URL(fileURLWithPath: "\(setting.store)/\(name)"))
            }
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: false)
        case .corruptEntries:
            for name in setting.storedFiles() where name.hasPrefix("ac/") {
                let url = URL(fileURLWithPath: "\(setting.store)/\(name)")
                var bytes = try Data(contentsOf: url)
                bytes[bytes.count / 2] ^= 0x5A
                try bytes.write(to: url)
            }
            server = try NginxServer(serving: URL(fileURLWithPath: setting.store), webDAV: false)
        }
        defer { server?.stop() }
        let base = server?.baseURL ?? URL(string: "http://127.0.0.1:\(port)")!
        let remote = RemoteCache(base: base, readOnly: fault == .wrongBlobs || fault == .corruptEntries, timeout: fault == .droppedMidBody ? 20 : 2)
        let outcome = try await setting.workspace.build(into: "\(setting.workspace.root)/two",
                                                        cache: try setting.freshCache("local-two", remote: remote))
        #expect(outcome.exitStatus == 0)
        #expect(setting.workspace.outputs("\(setting.workspace.root)/two") == setting.reference)
        let warnings = outcome.report.warnings.filter { $0.stage == .cache }
        #expect(warnings.count == 1, "\(warnings) \(String(describing: outcome.report.cache))")
        switch fault {
        case .serverErrors: #expect(warnings.first?.reason.contains("HTTP 500") == true)
        case .wrongBlobs, .corruptEntries: #expect(warnings.first?.reason.contains("do not match their hash") == true, "\(warnings)")
        case .stalledBody, .serverDown: #expect(warnings.first?.reason.contains("failed") == true)
        case .droppedMidBody:
            #expect(warnings.first.map { $0.reason.contains("failed") || $0.reason.contains("ended early") } == true, "\(warnings)")
        }
    }
}
