import Foundation
import Manifests
import TestServers
import Testing
import TesseraCore

/// `tessera serve`'s self-hosted download manifest for Apple's managed asset packs (issue 29).
@Suite("Serve: Apple asset packs", .serialized)
struct AppleAssetPackServeTests {
    @Test("a channel's managed asset packs: the build's own IDs and files, each bundle URL one the server answers, intact")
    func channelAssetPacks() async throws {
        let build = try await SamplesBuild.get()
        let folder = LiveServeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        let published = try await LiveServeTests.publish(build, to: server, channel: "production")
        #expect(published.status == 0, "\(published.stderr)")
        let answer = try RawHTTP.request(port: server.port, path: "/v1/channels/production/apple-asset-packs")
        #expect(answer.status == 200)
        let served = try JSONDecoder().decode(ManagedAssetPackIndex.self, from: Data(answer.body))
        let written = try JSONDecoder().decode(ManagedAssetPackIndex.self,
                                               from: Data(contentsOf: URL(fileURLWithPath: "\(build)/apple/asset-packs.json")))
        #expect(served.assetPacks.map(\.assetPackID) == written.assetPacks.map(\.assetPackID))
        #expect(served.assetPacks.map(\.files) == written.assetPacks.map(\.files))
        for pack in served.assetPacks {
            let bundle = try #require(pack.bundle)
            #expect(bundle.url == "/b/\(bundle.sha256.hex).tsb")
            let body = try RawHTTP.request(port: server.port, path: bundle.url)
            #expect(body.status == 200 && ContentHash.of(body.body) == bundle.sha256, "\(pack.assetPackID)")
        }
        let missing = try RawHTTP.request(port: server.port, path: "/v1/channels/nightly/apple-asset-packs")
        #expect(missing.status == 404)
    }
}
