import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import Packing
import PublishedBuilds
import Serving
import Testing
import TesseraCore

/// Objects (`docs/updates.md`) through the routes: stored once, checked decoded against their
/// names, listed as missing at publish, answered at `/o/<sha256>` like bundles.
@Suite("Object routes")
struct ObjectRouteTests {
    @Test("an object is stored only when it decodes to its name's bytes; publish lists the missing ones; /o/ answers ranges, ETag and immutable caching")
    func storeAndServe() async throws {
        let test = try TestService()
        defer { test.remove() }
        let contents = Array(String(repeating: "pixels compress well ", count: 2000).utf8)
        let xz = try XZ.compress(contents)
        let digest = ContentHash.of(contents)
        let png = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let objects = [TransferObject(sha256: digest, bytes: contents.count, encoding: .xz, transferBytes: xz.count),
                       TransferObject(sha256: ContentHash.of(png), bytes: png.count, encoding: .identity, transferBytes: png.count)]
            .sorted { $0.sha256 < $1.sha256 }
        var manifest = try SyntheticBuild().manifest
        manifest.objects = objects
        let manifestBytes = try StableJSON.encode(manifest)
        try await test.application.test(.router) { client in
            let first = try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(manifestBytes)) {
                try JSONDecoder().decode(PublishAnswer.self, from: Data(bytes($0.body)))
            }
            #expect(first.missingObjects == objects.map(\.sha256.hex))
            let path = "/v1/objects/\(digest.hex)"
            // Without a token, without the encoding, with bytes that decode to something else, or as the wrong size: refused.
            try await client.execute(uri: "\(path)?encoding=xz&bytes=\(contents.count)", method: .put, body: buffer(xz)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: path, method: .put, headers: writeHeaders, body: buffer(xz)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "\(path)?encoding=identity&bytes=\(xz.count)", method: .put, headers: writeHeaders,
                                     body: buffer(xz)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "\(path)?encoding=xz&bytes=\(contents.count - 1)", method: .put, headers: writeHeaders,
                                     body: buffer(xz)) { #expect($0.status == .badRequest) }
            #expect(!test.blobs.objects.contains(digest))
            try await client.execute(uri: "\(path)?encoding=xz&bytes=\(contents.count)", method: .put, headers: writeHeaders,
                                     body: buffer(xz)) { #expect($0.status == .created) }
            try await client.execute(uri: "/v1/objects/\(ContentHash.of(png).hex)?encoding=identity&bytes=\(png.count)", method: .put,
                                     headers: writeHeaders, body: buffer(png)) { #expect($0.status == .created) }
            let again = try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(manifestBytes)) {
                try JSONDecoder().decode(PublishAnswer.self, from: Data(bytes($0.body)))
            }
            #expect(again.missingObjects == [])
            try await client.execute(uri: "/o/\(digest.hex)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(bytes(response.body) == xz)
                #expect(response.headers[.eTag] == "\"\(digest.hex)\"")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            try await client.execute(uri: "/o/\(digest.hex)", method: .get, headers: [.range: "bytes=10-"]) { response in
                #expect(response.status == .partialContent)
                #expect(bytes(response.body) == Array(xz[10...]))
            }
            try await client.execute(uri: "/v1/channels/beta/objects/\(digest.hex)", method: .get) { response in
                #expect(response.status == .ok && bytes(response.body) == xz)
            }
            try await client.execute(uri: "/o/\(digest.hex).tsb", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/b/\(digest.hex).tsb", method: .get) { #expect($0.status == .notFound) }
        }
        #expect(test.blobs.mismatchedBlobs().isEmpty)
    }
}
