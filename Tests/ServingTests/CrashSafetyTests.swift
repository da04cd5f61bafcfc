import Foundation
import PublishedBuilds
import TestServers
import Manifests
import Serving
import Testing
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// kill -9 of `tessera serve` during a publish: after a restart the build is absent or complete,
/// never half-visible, and every blob in the store hashes to its name.
@Suite("Serve crash safety (kill -9)", .serialized)
struct CrashSafetyTests {
    static let auth = [("Authorization", "Bearer \(ServeProcess.token)")]

    static func temporaryFiles(under folder: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return names.filter { ($0 as NSString).lastPathComponent.hasPrefix(AtomicFile.temporaryPrefix) }
    }

    @Test("killed while a blob is half uploaded: the partial file is swept, the build stays uploading, publish then completes")
    func killMidBlob() async throws {
        let build = try await SamplesBuild.get()
        let folder = LiveServeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifestBytes = Array(FileManager.default.contents(atPath: "\(build)/manifest.json")!)
        let id = ContentHash.of(manifestBytes).hex
        let largest = try ManifestWriter.read(from: "\(build)/manifest.json").bundles.max { $0.bytes < $1.bytes }!
        let blob = Array(FileManager.default.contents(atPath: "\(build)/\(largest.path)")!)

        var server = try ServeProcess(folder: folder)
        let registered = try RawHTTP.request(port: server.port, method: "POST", path: "/v1/builds", headers: Self.auth,
                                             body: manifestBytes)
        #expect(registered.status == 202)
        let upload = try RawHTTP.open(port: server.port, method: "PUT", path: "/v1/blobs/\(largest.sha256.hex)",
                                      headers: Self.auth, body: blob, sendBody: blob.count / 2)
        var waited = 0
        while Self.temporaryFiles(under: server.store).isEmpty && waited < 200 {
            usleep(25_000)
            waited += 1
        }
        #expect(!Self.temporaryFiles(under: server.store).isEmpty, "the upload never reached the store")
        server.crash()
        _ = upload

        server = try ServeProcess(folder: folder)
        defer { server.stop() }
        #expect(Self.temporaryFiles(under: server.store).isEmpty)
        #expect(try BlobStore(root: server.store).mismatchedBlobs().isEmpty)
        let record = try RawHTTP.request(port: server.port, path: "/v1/builds/\(id)")
        #expect(try JSONDecoder().decode(BuildRecord.self, from: Data(record.body)).state == .uploading)
        #expect(try RawHTTP.request(port: server.port, path: "/b/\(largest.sha256.hex).tsb").status == 404)
        let move = try StableJSON.encode(ChannelMove(build: id, expected: nil))
        #expect(try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/channels/production", headers: Self.auth,
                                    body: move).status == 409)
        let finished = try await LiveServeTests.publish(build, to: server, channel: "production")
        #expect(finished.status == 0, "\(finished.stderr)")
        let query = try RawHTTP.request(port: server.port, path: "/v1/channels/production/query?device=iPhone15,2")
        #expect(query.status == 200)
    }

    @Test("killed at various points of `tessera publish --channel`: absent or complete, never half-visible",
          arguments: [20, 80, 200, 400, 700, 1200, 2500])
    func killDuringPublish(afterMilliseconds delay: Int) async throws {
        let build = try await SamplesBuild.get()
        let folder = LiveServeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifest = try ManifestWriter.read(from: "\(build)/manifest.json")
        let id = ContentHash.of(FileManager.default.contents(atPath: "\(build)/manifest.json")!).hex

        var server = try ServeProcess(folder: folder)
        let publisher = Process()
        publisher.executableURL = URL(fileURLWithPath: ServeProcess.executable)
        publisher.arguments = ["publish", build, "--server", server.url, "--token-file", server.tokenFile, "--channel", "production"]
        publisher.standardOutput = FileHandle.nullDevice
        publisher.standardError = FileHandle.nullDevice
        try publisher.run()
        usleep(UInt32(delay * 1000))
        server.crash()
        publisher.waitUntilExit()

        server = try ServeProcess(folder: folder)
        defer { server.stop() }
        let store = try BlobStore(root: server.store)
        #expect(store.mismatchedBlobs().isEmpty)
        let record = try RawHTTP.request(port: server.port, path: "/v1/builds/\(id)")
        let channel = try RawHTTP.request(port: server.port, path: "/v1/channels/production")
        if record.status == 404 {
            #expect(channel.status == 404)
            return
        }
        let state = try JSONDecoder().decode(BuildRecord.self, from: Data(record.body)).state
        if state == .complete {
            // Visible builds have every bundle, each verified.
            for bundle in manifest.bundles { #expect(store.contains(bundle.sha256)) }
        } else {
            #expect(channel.status == 404, "a channel points at a build still uploading")
        }
        if channel.status == 200 {
            #expect(state == .complete)
            #expect(try JSONDecoder().decode(ChannelState.self, from: Data(channel.body)).build == id)
        }
    }
}
