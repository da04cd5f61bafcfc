import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import Packing
import PublishedBuilds
import Serving
import Testing
import TesseraCore

/// A channel's update files (`docs/updates.md`) through `tessera serve`: uploaded with the token,
/// each checked before it is kept, and answered beside the channel's manifest.
@Suite("Serve: update files")
struct UpdateRouteTests {
    @Test("a compressed manifest and a patch are kept only when they make the build's manifest; updates.json lists the patch from the channel's earlier build, and both answer beside the manifest")
    func updateFilesRoundTrip() async throws {
        let test = try TestService()
        defer { test.remove() }
        let v1 = try SyntheticBuild(seed: 1), v2 = try SyntheticBuild(seed: 2)
        let compressed = try XZ.compress(v2.manifestBytes, level: XZ.manifestLevel)
        let patch = try ManifestDiffer.patch(from: v1.manifestBytes, to: v2.manifestBytes)
        try await test.application.test(.router) { client in
            try await publish(v1, channel: "beta", client: client)
            try await publish(v2, channel: nil, client: client)
            let move = try StableJSON.encode(ChannelMove(build: v2.id, expected: v1.id))
            try await client.execute(uri: "/v1/channels/beta", method: .put, headers: writeHeaders, body: buffer(move)) {
                #expect($0.status == .ok)
            }
            // No update files yet: a client fetches the manifest, as from a host without them.
            try await client.execute(uri: "/v1/channels/beta/updates.json", method: .get) { #expect($0.status == .notFound) }

            let xzRoute = "/v1/builds/\(v2.id)/manifest.json.xz"
            let otherManifest = try XZ.compress(v1.manifestBytes, level: XZ.manifestLevel)
            for refused in [otherManifest, Array("not xz".utf8)] {
                try await client.execute(uri: xzRoute, method: .put, headers: writeHeaders, body: buffer(refused)) {
                    #expect($0.status == .badRequest, "\(String(decoding: bytes($0.body), as: UTF8.self))")
                }
            }
            try await client.execute(uri: xzRoute, method: .put, headers: writeHeaders, body: buffer(compressed)) { #expect($0.status == .ok) }

            let patchRoute = "/v1/builds/\(v2.id)/patches/\(v1.id)"
            let backwards = try ManifestDiffer.patch(from: v2.manifestBytes, to: v1.manifestBytes)
            for refused in [backwards, Array(patch.dropLast(3)), Array("TSMPATCH".utf8)] {
                try await client.execute(uri: patchRoute, method: .put, headers: writeHeaders, body: buffer(refused)) {
                    #expect($0.status == .badRequest, "\(String(decoding: bytes($0.body), as: UTF8.self))")
                }
            }
            let unknown = String(repeating: "ab", count: 32)
            try await client.execute(uri: "/v1/builds/\(v2.id)/patches/\(unknown)", method: .put, headers: writeHeaders, body: buffer(patch)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: patchRoute, method: .put, headers: writeHeaders, body: buffer(patch)) { #expect($0.status == .ok) }

            var index: UpdateIndex?
            try await client.execute(uri: "/v1/channels/beta/updates.json", method: .get) {
                #expect($0.status == .ok)
                #expect($0.headers[.cacheControl] == "no-cache")
                index = try UpdateIndex.decode(Data(bytes($0.body)), source: "updates.json")
            }
            let found = try #require(index)
            #expect(found.manifest == ManifestReference(of: v2.manifestBytes))
            #expect(found.compressedBytes == compressed.count)
            #expect(found.patches == [UpdateIndex.Patch(from: ManifestReference(of: v1.manifestBytes),
                                                        path: "patches/\(v1.id)-\(v2.id).patch", bytes: patch.count)])

            // Resolved against the manifest's URL, as on a static host.
            try await client.execute(uri: "/v1/channels/beta/\(found.patches[0].path)", method: .get) {
                #expect($0.status == .ok)
                #expect($0.headers[.cacheControl] == "public, max-age=31536000, immutable")
                let made = try ManifestPatch.apply(bytes($0.body), to: v1.manifestBytes, target: found.manifest)
                #expect(made == v2.manifestBytes)
            }
            try await client.execute(uri: "/v1/channels/beta/manifest.json.xz", method: .get) {
                #expect($0.status == .ok)
                let decoded = try XZ.decompress(bytes($0.body), expectedSize: found.manifest.bytes)
                #expect(decoded == v2.manifestBytes)
            }
            try await client.execute(uri: "/v1/channels/beta/patches/\(v2.id)-\(v1.id).patch", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/channels/beta/patches/..%2F..%2Fcatalog.sqlite", method: .get) { #expect($0.status == .notFound) }

            // Back on v1 (a rollback): nothing was uploaded for it, so no index; devices fetch the manifest.
            let back = try StableJSON.encode(ChannelMove(build: v1.id, expected: v2.id))
            try await client.execute(uri: "/v1/channels/beta", method: .put, headers: writeHeaders, body: buffer(back)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/channels/beta/updates.json", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
