import Delivery
import Foundation
import Testing
import TesseraCore
import TesseraClient
import TestServers

/// The client against a live `tessera serve`: the sample build published to a channel, loaded
/// through the channel's manifest and the server's content-addressed bundle URLs.
@Suite("TesseraClient against tessera serve", .serialized)
struct ServeChannelTests {
    @Test("a published channel: the plan equals the query, begin accessing fetches /b/<sha256>.tsb verified, assets read back; an unknown channel is a clear error")
    func loadsFromAChannel() async throws {
        let build = try await SampleBuild.folder.value
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(folder: folder.path)
        defer { server.stop() }
        let published = try await ServeProcess.run(["publish", build.path, "--server", server.url, "--token-file", server.tokenFile,
                                              "--channel", "production"])
        #expect(published.status == 0, "\(published.stderr)")

        let store = folder.appendingPathComponent("store-client")
        let client = try TesseraClient(configuration: .channel("production", on: URL(string: server.url)!,
                                                               storeFolder: store, device: "iPhone15,2"))
        let manifest = try await SampleBuild.manifest()
        let planned = try await client.plan(tags: ["Green"])
        #expect(planned == (try DeviceQuery.answer(manifest, device: "iPhone15,2", tags: ["Green"])))

        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        let needed = planned.bundles.filter { $0.category == .initialInstall || $0.tags.contains("Green") }
        #expect(Set(await client.installedBundles) == Set(needed.map(\.sha256)))
        for asset in manifest.assets where asset.tags.contains("Green") {
            let data = try request.data(for: asset.name.name)
            let variant = try #require(asset.variants.first { ContentHash.of(data) == $0.sha256 })
            #expect(try Data(contentsOf: build.appendingPathComponent(variant.path)) == data)
        }
        await request.endAccessing()
        // The server logged the content-addressed bundle requests, not the build folder's paths
        // (a busy server's lines may wait `BufferedLogOutput.busyWritePause` for their write).
        var log = ""
        for _ in 0..<100 {
            log = try String(contentsOfFile: server.logPath, encoding: .utf8)
            if needed.allSatisfy({ log.contains("/b/\($0.sha256.hex).tsb") }) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        for bundle in needed { #expect(log.contains("/b/\(bundle.sha256.hex).tsb")) }

        let missing = try TesseraClient(configuration: .channel("nightly", on: URL(string: server.url)!,
                                                                storeFolder: folder.appendingPathComponent("store-2"),
                                                                device: "iPhone15,2"))
        await #expect(throws: TesseraError.self) { try await missing.plan(tags: ["Green"]) }
    }
}
