import Delivery
import Foundation
import Manifests
import PublishedBuilds
import Serving
import TestServers
import Testing
import TesseraCore

/// `tessera serve` as a real process on 127.0.0.1, fed the Samples build by `tessera publish`,
/// with nginx serving the same blob files as the reference for ranges and conditionals.
@Suite("Serve (live, real processes)", .serialized)
struct LiveServeTests {
    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-live-\(UUID().uuidString)").path
    }

    static func publish(_ build: String, to server: ServeProcess, channel: String? = nil) async throws -> ServeProcess.Result {
        try await ServeProcess.run(["publish", build, "--server", server.url, "--token-file", server.tokenFile]
                             + (channel.map { ["--channel", $0] } ?? []))
    }

    /// `tessera query --json`'s answer with each relative bundle URL made `/b/<sha256>.tsb`, as
    /// `tessera serve` answers it, re-encoded with sorted keys.
    static func servedURLs(_ answer: [UInt8]) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any] else { return Data() }
        if let bundles = object["bundles"] as? [[String: Any]] {
            object["bundles"] = bundles.map { bundle -> [String: Any] in
                var bundle = bundle
                if let url = bundle["url"] as? String, !url.hasPrefix("http"), let sha = bundle["sha256"] as? String {
                    bundle["url"] = "/b/\(sha).tsb"
                }
                return bundle
            }
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func normalised(_ answer: [UInt8]) throws -> Data {
        try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: Data(answer)), options: [.sortedKeys])
    }

    @Test("publish --channel uploads the update files: the compressed manifest, and a patch from the channel's earlier build made from the server's copy of its manifest; updates.json lists it beside the manifest")
    func publishUploadsUpdateFiles() async throws {
        let build = try await SamplesBuild.get()
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        let earlier = try SyntheticBuild()
        let token = [("Authorization", "Bearer \(ServeProcess.token)")]
        _ = try RawHTTP.request(port: server.port, method: "POST", path: "/v1/builds", headers: token, body: earlier.manifestBytes)
        for (hash, blob) in earlier.blobs {
            _ = try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/blobs/\(hash.hex)", headers: token, body: blob)
        }
        #expect(try RawHTTP.request(port: server.port, method: "POST", path: "/v1/builds", headers: token, body: earlier.manifestBytes).status == 200)
        let promoted = try await ServeProcess.run(["channel", "promote", "production", earlier.id, "--server", server.url, "--token-file", server.tokenFile])
        #expect(promoted.status == 0, "\(promoted.stderr)")

        let published = try await Self.publish(build, to: server, channel: "production")
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout.contains("update files: manifest.json.xz, patches from 1 earlier builds"), "\(published.stdout)")
        let manifestBytes = Array(FileManager.default.contents(atPath: "\(build)/manifest.json")!)
        let answer = try RawHTTP.request(port: server.port, path: "/v1/channels/production/updates.json")
        #expect(answer.status == 200)
        let index = try UpdateIndex.decode(Data(answer.body), source: "updates.json")
        #expect(index.manifest == ManifestReference(of: manifestBytes))
        #expect(index.patches.map(\.from) == [ManifestReference(of: earlier.manifestBytes)])
        let patch = try RawHTTP.request(port: server.port, path: "/v1/channels/production/\(try #require(index.patches.first).path)")
        let patched = try ManifestPatch.apply(Array(patch.body), to: earlier.manifestBytes, target: index.manifest)
        #expect(patched == manifestBytes)
        let compressed = try RawHTTP.request(port: server.port, path: "/v1/channels/production/manifest.json.xz")
        #expect(compressed.body.count == index.compressedBytes)
        let decoded = try XZ.decompress(Array(compressed.body), expectedSize: index.manifest.bytes)
        #expect(decoded == manifestBytes)
    }

    @Test("publish Samples, promote, query like `tessera query`, download every bundle intact, roll back")
    func publishQueryDownload() async throws {
        let build = try await SamplesBuild.get()
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        let first = try await Self.publish(build, to: server, channel: "production")
        #expect(first.status == 0, "\(first.stderr)")
        let manifestBytes = Array(FileManager.default.contents(atPath: "\(build)/manifest.json")!)
        let id = ContentHash.of(manifestBytes).hex
        #expect(first.stdout.contains("published \(id)"))
        #expect(first.stdout.contains("production -> \(id)"))
        let again = try await Self.publish(build, to: server)
        #expect(again.stdout.contains("published \(id): 0 blobs uploaded"))

        let manifest = try ManifestWriter.read(from: "\(build)/manifest.json")
        let cases: [(String, String, String)] = [
            ("iPhone15,2", "Green", ""), ("iPad12,1", "Green,Circle", "Red"), ("iPhone2,1", "", ""),
            ("iPhone16,1", "Star", ""), ("iPhone15,2", "Gren", ""), ("Pixel", "", ""),
        ]
        for (device, tags, installed) in cases {
            var arguments = ["query", "\(build)/manifest.json", "--device", device, "--json"]
            if !tags.isEmpty { arguments += ["--tags", tags] }
            if !installed.isEmpty { arguments += ["--installed", installed] }
            let cli = try await ServeProcess.run(arguments)
            let http = try RawHTTP.request(port: server.port,
                                           path: "/v1/channels/production/query?device=\(device)&tags=\(tags)&installed=\(installed)")
            if cli.status == 0 {
                #expect(http.status == 200)
                // The same answer, but bundle URLs the server answers where the build's are relative.
                #expect(try Self.servedURLs(Array(cli.stdout.utf8)) == Self.normalised(http.body), "\(device) \(tags)")
            } else {
                // The same refusal, with the same closest matches.
                #expect(http.status == 400)
                let reason = cli.stderr.components(separatedBy: "query: ").last!.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(String(decoding: http.body, as: UTF8.self).contains(reason), "\(reason)")
            }
        }
        for bundle in manifest.bundles {
            let response = try RawHTTP.request(port: server.port, path: "/b/\(bundle.sha256.hex).tsb")
            #expect(response.status == 200)
            #expect(ContentHash.of(response.body) == bundle.sha256)
        }
        let served = try RawHTTP.request(port: server.port, path: "/v1/channels/production/manifest")
        #expect(served.body == manifestBytes)

        // A second build (the synthetic one), promoted by CAS and rolled back.
        let other = try SyntheticBuild()
        _ = try RawHTTP.request(port: server.port, method: "POST", path: "/v1/builds",
                                headers: [("Authorization", "Bearer \(ServeProcess.token)")], body: other.manifestBytes)
        for (hash, blob) in other.blobs {
            _ = try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/blobs/\(hash.hex)",
                                    headers: [("Authorization", "Bearer \(ServeProcess.token)")], body: blob)
        }
        let completed = try RawHTTP.request(port: server.port, method: "POST", path: "/v1/builds",
                                            headers: [("Authorization", "Bearer \(ServeProcess.token)")], body: other.manifestBytes)
        #expect(completed.status == 200)
        let client = ["--server", server.url, "--token-file", server.tokenFile]
        let stale = try await ServeProcess.run(["channel", "promote", "production", other.id, "--expected", other.id] + client)
        #expect(stale.status != 0)
        #expect(stale.stderr.contains("HTTP 409"))
        // A unique prefix names the build; one too short is refused.
        let promoted = try await ServeProcess.run(["channel", "promote", "production", String(other.id.prefix(10))] + client)
        #expect(promoted.stdout == "production -> \(other.id)\n", "\(promoted.stderr)")
        let tooShort = try await ServeProcess.run(["channel", "promote", "production", String(other.id.prefix(3))] + client)
        #expect(tooShort.status != 0 && tooShort.stderr.contains("4 to 64 hex digits"), "\(tooShort.stderr)")
        let listed = try await ServeProcess.run(["channel", "ls", "--server", server.url])
        #expect(listed.stdout.hasPrefix("production \(other.id) 20") && listed.stdout.hasSuffix(" promote\n"), "\(listed.stdout)")
        let json = try await ServeProcess.run(["channel", "ls", "--json", "--server", server.url])
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(listing["version"] as? Int == 1)
        #expect(((listing["channels"] as? [[String: Any]])?.first?["history"] as? [Any])?.count == 2)
        // Staging to production by channel name.
        let staged = try await ServeProcess.run(["channel", "promote", "staging", id] + client)
        #expect(staged.status == 0, "\(staged.stderr)")
        let rolledBack = try await ServeProcess.run(["channel", "rollback", "production"] + client)
        #expect(rolledBack.stdout == "production -> \(id)\n")
        // Twice goes further back, never toggles: here there is nothing further.
        let secondRollback = try await ServeProcess.run(["channel", "rollback", "production"] + client)
        #expect(secondRollback.status != 0 && secondRollback.stderr.contains("no earlier build"), "\(secondRollback.stderr)")
        let fromStaging = try await ServeProcess.run(["channel", "promote", "production", "--from", "staging"] + client)
        #expect(fromStaging.stdout == "production -> \(id)\n", "\(fromStaging.stderr)")
        let unauthorized = try await ServeProcess.run(["channel", "promote", "production", other.id, "--server", server.url])
        #expect(unauthorized.status != 0)
        #expect(unauthorized.stderr.contains("HTTP 401"))
        #expect(server.stop() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        #expect(log.contains("PUT /v1/channels/production 409"))
        #expect(log.contains("GET /v1/channels/production/query 200"))
    }

    @Test("with PostgreSQL down, queries answer 503 with the reason within seconds, not a bare 500 after a minute, and /healthz says so")
    func postgresDown() async throws {
        let build = try await SamplesBuild.get()
        let postgres = try PostgresServer()
        defer { postgres.stop() }
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder, catalog: postgres.url)
        defer { server.stop() }
        await #expect(try Self.publish(build, to: server, channel: "production").status == 0)
        let query = "/v1/channels/production/query?device=iPhone15,2"
        #expect(try RawHTTP.request(port: server.port, path: query).status == 200)
        postgres.stop()
        let started = Date()
        let down = try RawHTTP.request(port: server.port, path: query)
        #expect(down.status == 503, "\(down.status) \(String(decoding: down.body, as: UTF8.self))")
        #expect(String(decoding: down.body, as: UTF8.self).contains("build store is unavailable"))
        #expect(Date().timeIntervalSince(started) < 45, "\(Date().timeIntervalSince(started)) s (it was about 67)")
        let health = try RawHTTP.request(port: server.port, path: "/healthz")
        #expect(health.status == 503)
    }

    @Test("tessera publish refuses a manifest whose bundle path climbs out of the build folder, naming it, before it sends anything")
    func publishRefusesPathsOutsideTheBuild() async throws {
        let build = try await SamplesBuild.get()
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(build)/manifest.json"))) as? [String: Any])
        var bundles = try #require(object["bundles"] as? [[String: Any]])
        bundles[0]["path"] = "../../../../../../etc/passwd"
        object["bundles"] = bundles
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: "\(folder)/manifest.json"))
        let port = try LoopbackPort.free()
        try "t0ken".write(toFile: "\(folder)/token", atomically: true, encoding: .utf8)
        let result = try await ServeProcess.run(["publish", folder, "--server", "http://127.0.0.1:\(port)", "--token-file", "\(folder)/token"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("manifest.json") && result.stderr.contains("bundle path"), "\(result.stderr)")
    }

    @Test("commands that talk to a server that is not there fail at once, naming it (AsyncHTTPClient's shared pool retried a refused connection for a minute)")
    func absentServerFailsAtOnce() async throws {
        let port = try LoopbackPort.free()
        for arguments in [["channel", "ls", "--server", "http://127.0.0.1:\(port)"],
                          ["channel", "rollback", "production", "--server", "http://127.0.0.1:\(port)"]] {
            let started = Date()
            let result = try await ServeProcess.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("127.0.0.1:\(port)"), "\(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 30, "\(arguments)")
        }
    }

    @Test("ranges and conditionals of bundles (/b/) and objects (/o/): same status, Content-Range and bytes as nginx serving the same files")
    func nginxAgrees() async throws {
        let build = try await SamplesBuild.get()
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        await #expect(try Self.publish(build, to: server).status == 0)
        let nginx = try NginxServer(serving: URL(fileURLWithPath: server.store))
        defer { nginx.stop() }
        let manifest = try ManifestWriter.read(from: "\(build)/manifest.json")
        let largest = manifest.bundles.max { $0.bytes < $1.bytes }!
        let smallest = manifest.bundles.min { $0.bytes < $1.bytes }!
        for bundle in [largest, smallest] {
            let hex = bundle.sha256.hex
            try Self.expectSameAnswers(server: server, ours: "/b/\(hex).tsb", nginx: nginx, theirs: "/blobs/\(hex.prefix(2))/\(hex)",
                                       length: bundle.bytes)
        }
        // Objects are stored once, in their transfer form, and answered by the same code path.
        let objects = try #require(manifest.objects)
        let objectLargest = objects.max { $0.transferBytes < $1.transferBytes }!
        let objectSmallest = objects.filter { $0.transferBytes > 0 }.min { $0.transferBytes < $1.transferBytes }!
        for object in [objectLargest, objectSmallest] {
            let hex = object.sha256.hex
            let stored = try RawHTTP.request(port: server.port, path: "/o/\(hex)")
            let written = try #require(FileManager.default.contents(atPath: "\(build)/\(object.path)"))
            #expect(stored.status == 200 && stored.body == [UInt8](written))
            #expect(stored.header("Cache-Control") == "public, max-age=31536000, immutable" && stored.header("ETag") == "\"\(hex)\"")
            try Self.expectSameAnswers(server: server, ours: "/o/\(hex)", nginx: nginx, theirs: "/objects/\(hex.prefix(2))/\(hex)",
                                       length: object.transferBytes)
        }
        #expect(try RawHTTP.request(port: server.port, path: "/o/\(String(repeating: "0", count: 64))").status == 404)
    }

    /// Every range, method and condition asked of `ours` on the server and of `theirs` on nginx
    /// (the same file) gets the same status, Content-Range, Content-Length and bytes.
    static func expectSameAnswers(server: ServeProcess, ours: String, nginx: NginxServer, theirs: String, length: Int) throws {
        let ourTag = try RawHTTP.request(port: server.port, method: "HEAD", path: ours).header("ETag")!
        let theirTag = try RawHTTP.request(port: nginx.port, method: "HEAD", path: theirs).header("ETag")!
        let ranges = ["bytes=0-0", "bytes=0-99", "bytes=-1", "bytes=-64", "bytes=-\(length + 10)", "bytes=100-",
                      "bytes=\(length - 1)-", "bytes=\(length)-", "bytes=\(length + 5)-\(length + 9)", "bytes=0-\(length * 2)",
                      "bytes=5-2", "bytes=-0", "bytes=abc", "bytes=-", "bytes= 3 - 7 ", "Bytes=1-2", "items=0-1",
                      "bytes=1-2,-0", "bytes=0-\(length - 1),0-\(length - 1)",
                      // Issue 39: an empty range in a list is skipped, a bare `bytes=` ignored, as nginx does.
                      "bytes=1-0,0-0", "bytes=", "bytes=0-0,1-0", "bytes=3-1,-5", "bytes=9-3,4-2"]
        for range in ranges {
            for method in ["GET", "HEAD"] {
                for ifRange in [nil, true, false] as [Bool?] {
                    var ourHeaders = [("Range", range)], theirHeaders = [("Range", range)]
                    if let ifRange {
                        ourHeaders.append(("If-Range", ifRange ? ourTag : "\"other\""))
                        theirHeaders.append(("If-Range", ifRange ? theirTag : "\"other\""))
                    }
                    let a = try RawHTTP.request(port: server.port, method: method, path: ours, headers: ourHeaders)
                    let b = try RawHTTP.request(port: nginx.port, method: method, path: theirs, headers: theirHeaders)
                    let label = "\(ours) \(method) \(range) If-Range: \(String(describing: ifRange))"
                    #expect(a.status == b.status, "\(label)")
                    #expect(a.header("Content-Range") == b.header("Content-Range"), "\(label)")
                    if a.status != 416 {
                        #expect(a.header("Content-Length") == b.header("Content-Length"), "\(label)")
                        #expect(a.body == b.body, "\(label)")
                    }
                }
            }
        }
        // Two Range fields: the first is read, as nginx reads it.
        for method in ["GET", "HEAD"] {
            let fields = [("Range", "bytes=0-1"), ("Range", "bytes=2-3")]
            let a = try RawHTTP.request(port: server.port, method: method, path: ours, headers: fields)
            let b = try RawHTTP.request(port: nginx.port, method: method, path: theirs, headers: fields)
            #expect(a.status == 206 && a.status == b.status && a.header("Content-Range") == b.header("Content-Range"), "\(ours)")
            #expect(a.body == b.body)
        }
        // Several ranges: nginx sends multipart/byteranges, Tessera the whole file (RFC 9110 allows either).
        let several = try RawHTTP.request(port: server.port, path: ours, headers: [("Range", "bytes=0-1,5-6")])
        #expect(several.status == 200)
        #expect(several.body.count == length)
        for method in ["GET", "HEAD"] {
            let a = try RawHTTP.request(port: server.port, method: method, path: ours, headers: [("If-None-Match", ourTag)])
            let b = try RawHTTP.request(port: nginx.port, method: method, path: theirs, headers: [("If-None-Match", theirTag)])
            #expect(a.status == 304)
            #expect(a.status == b.status)
            #expect(a.body.isEmpty && b.body.isEmpty)
        }
    }

    @Test("two instances on one PostgreSQL catalog: publish through one, query through the other; of two concurrent promotions one wins, one gets 409")
    func twoInstancesSharePostgres() async throws {
        let build = try await SamplesBuild.get()
        let postgres = try PostgresServer()
        defer { postgres.stop() }
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try ServeProcess(folder: folder, catalog: postgres.url)
        defer { first.stop() }
        let second = try ServeProcess(folder: folder, catalog: postgres.url)
        defer { second.stop() }
        let published = try await Self.publish(build, to: first, channel: "production")
        #expect(published.status == 0, "\(published.stderr)")
        let id = ContentHash.of(FileManager.default.contents(atPath: "\(build)/manifest.json")!).hex
        let path = "/v1/channels/production/query?device=iPad14,1&tags=Blue"
        let viaFirst = try RawHTTP.request(port: first.port, path: path)
        let viaSecond = try RawHTTP.request(port: second.port, path: path)
        #expect(viaSecond.status == 200)
        #expect(viaSecond.body == viaFirst.body)

        let other = try SyntheticBuild()
        let auth = [("Authorization", "Bearer \(ServeProcess.token)")]
        _ = try RawHTTP.request(port: second.port, method: "POST", path: "/v1/builds", headers: auth, body: other.manifestBytes)
        for (hash, blob) in other.blobs {
            _ = try RawHTTP.request(port: second.port, method: "PUT", path: "/v1/blobs/\(hash.hex)", headers: auth, body: blob)
        }
        #expect(try RawHTTP.request(port: first.port, method: "POST", path: "/v1/builds", headers: auth,
                                    body: other.manifestBytes).status == 200)
        let move = try StableJSON.encode(ChannelMove(build: other.id, expected: id))
        let statuses = LockedValue<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let port = index == 0 ? first.port : second.port
            let status = (try? RawHTTP.request(port: port, method: "PUT", path: "/v1/channels/production", headers: auth,
                                               body: move).status) ?? 0
            statuses.update { $0.append(status) }
        }
        #expect(statuses.get().sorted() == [200, 409])
        let state = try RawHTTP.request(port: first.port, path: "/v1/channels/production")
        let channel = try JSONDecoder().decode(ChannelState.self, from: Data(state.body))
        #expect(channel.build == other.id)
        #expect(channel.history.map(\.build) == [other.id, id])
    }

    /// Several 24 MiB downloads whose clients have not read yet (the server is stuck mid-body on
    /// full sockets) when SIGTERM comes: each must arrive whole, then the server exits 0. Before
    /// `DrainingShutdown`, the close at the end of each response dropped what the socket had not
    /// taken yet, so every one of them came up short.
    @Test("SIGTERM lets in-flight downloads finish whole, then the server exits 0")
    func gracefulShutdown() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        var generator = SplitMix(state: 12)
        var blob = [UInt8](repeating: 0, count: 24 << 20)
        blob.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 8) { bytes.storeBytes(of: generator.next(), toByteOffset: index, as: UInt64.self) }
        }
        let digest = ContentHash.of(blob)
        let stored = try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/blobs/\(digest.hex)",
                                         headers: [("Authorization", "Bearer \(ServeProcess.token)")], body: blob)
        #expect(stored.status == 201)
        // Requests sent, nothing read yet: the server is blocked mid-body on full sockets.
        let connections = try (0..<4).map { _ in
            try RawHTTP.open(port: server.port, method: "GET", path: "/b/\(digest.hex).tsb")
        }
        usleep(500_000)
        let stopped = DispatchSemaphore(value: 0)
        let status = LockedValue<Int32>(-1)
        Thread.detachNewThread {
            status.set(server.stop())
            stopped.signal()
        }
        usleep(500_000)
        #expect(server.isRunning, "the server must wait for the downloads in flight")
        for connection in connections {
            let response = RawHTTP.parse(connection.readAll(), isHead: false)
            #expect(response.status == 200)
            #expect(response.body.count == blob.count)
            #expect(ContentHash.of(response.body) == digest)
        }
        stopped.wait()
        #expect(status.get() == 0)
    }
}

/// A value shared with a thread, behind a lock.
final class LockedValue<T: Sendable>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func set(_ newValue: T) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
    func update(_ change: (inout T) -> Void) { lock.lock(); change(&value); lock.unlock() }
}
