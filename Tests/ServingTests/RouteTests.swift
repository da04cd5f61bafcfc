import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Manifests
import PublishedBuilds
import Serving
import Testing
import TesseraCore

/// A service over a fresh SQLite catalog and blob store in a temporary folder.
struct TestService {
    let folder: String
    let service: BuildServer
    let blobs: BlobStore
    static let token = "secret-token"

    init(configuration: ServerConfiguration = ServerConfiguration(token: TestService.token)) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-serve-\(UUID().uuidString)").path
        blobs = try BlobStore(root: "\(folder)/store")
        service = BuildServer(builds: try SQLiteBuildStore(path: "\(folder)/catalog.sqlite"), blobs: blobs,
                                 configuration: configuration)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    var application: some ApplicationProtocol {
        var logger = Logger(label: "test")
        logger.logLevel = .error
        return Application(router: service.router(logger: logger))
    }
}

let writeHeaders: HTTPFields = [.authorization: "Bearer \(TestService.token)"]

func buffer(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }
func bytes(_ buffer: ByteBuffer) -> [UInt8] { Array(buffer.readableBytesView) }

/// Publishes `build` through the routes and points `channel` at it.
func publish(_ build: SyntheticBuild, channel: String?, client: some TestClientProtocol) async throws {
    try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(build.manifestBytes)) { _ in }
    for (hash, blob) in build.blobs {
        try await client.execute(uri: "/v1/blobs/\(hash.hex)", method: .put, headers: writeHeaders, body: buffer(blob)) { _ in }
    }
    try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(build.manifestBytes)) {
        #expect($0.status == .ok)
    }
    if let channel {
        let move = try StableJSON.encode(ChannelMove(build: build.id, expected: nil))
        try await client.execute(uri: "/v1/channels/\(channel)", method: .put, headers: writeHeaders, body: buffer(move)) {
            #expect($0.status == .ok)
        }
    }
}

@Suite("Serve routes (in-process)")
struct RouteTests {
    @Test("publish: uploading until every blob is verified, then complete; identical re-publish uploads nothing")
    func publishLifecycle() async throws {
        let test = try TestService()
        defer { test.remove() }
        let build = try SyntheticBuild()
        try await test.application.test(.router) { client in
            try await client.execute(uri: "/v1/builds", method: .post, body: buffer(build.manifestBytes)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/builds", method: .post, headers: [.authorization: "Bearer wrong"],
                                     body: buffer(build.manifestBytes)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(Array("{}".utf8))) {
                #expect($0.status == .badRequest)
            }
            // A manifest every client would refuse (a bundle path leaving the build) is refused
            // here too, naming the field, and nothing is stored (issue 54, item 12).
            var hostile = build.manifest
            hostile.bundles[0].path = "../../etc/passwd"
            try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders,
                                     body: buffer(Array(try JSONEncoder().encode(hostile)))) { response in
                #expect(response.status == .badRequest)
                #expect(String(decoding: bytes(response.body), as: UTF8.self).contains("bundle path"))
            }
            let first = try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders,
                                                 body: buffer(build.manifestBytes)) { response in
                #expect(response.status == .accepted)
                return try JSONDecoder().decode(PublishAnswer.self, from: Data(bytes(response.body)))
            }
            #expect(first.id == build.id)
            #expect(first.state == .uploading)
            #expect(first.missing == build.blobs.keys.map(\.hex).sorted())
            // Not visible yet: a channel cannot point at it.
            let move = try StableJSON.encode(ChannelMove(build: build.id, expected: nil))
            try await client.execute(uri: "/v1/channels/beta", method: .put, headers: writeHeaders, body: buffer(move)) {
                #expect($0.status == .conflict)
            }
            // Bytes that do not hash to the name are refused and not stored.
            let (someHash, someBlob) = build.blobs.first!
            try await client.execute(uri: "/v1/blobs/\(someHash.hex)", method: .put, headers: writeHeaders,
                                     body: buffer(someBlob.reversed())) { #expect($0.status == .badRequest) }
            #expect(!test.blobs.contains(someHash))
            try await client.execute(uri: "/v1/blobs/\(someHash.hex.uppercased())", method: .put, headers: writeHeaders,
                                     body: buffer(someBlob)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/blobs/..%2F..%2Fcatalog.sqlite", method: .put, headers: writeHeaders,
                                     body: buffer(someBlob)) { #expect($0.status == .badRequest) }
            try await publish(build, channel: "beta", client: client)
            let again = try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders,
                                                 body: buffer(build.manifestBytes)) {
                try JSONDecoder().decode(PublishAnswer.self, from: Data(bytes($0.body)))
            }
            #expect(again == PublishAnswer(id: build.id, state: .complete, missing: []))
            try await client.execute(uri: "/v1/builds/\(build.id)", method: .get) { response in
                let record = try JSONDecoder().decode(BuildRecord.self, from: Data(bytes(response.body)))
                #expect(record.state == .complete)
            }
        }
        #expect(test.blobs.mismatchedBlobs().isEmpty)
    }

    @Test("channels: compare-and-swap answers 409 to a stale expected build; history allows rollback")
    func channelMoves() async throws {
        let test = try TestService()
        defer { test.remove() }
        let one = try SyntheticBuild(seed: 1), two = try SyntheticBuild(seed: 2)
        try await test.application.test(.router) { client in
            try await publish(one, channel: "production", client: client)
            try await publish(two, channel: nil, client: client)
            let stale = try StableJSON.encode(ChannelMove(build: two.id, expected: two.id))
            try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(stale)) {
                #expect($0.status == .conflict)
                #expect(String(decoding: bytes($0.body), as: UTF8.self).contains("points at \(one.id)"))
            }
            let good = try StableJSON.encode(ChannelMove(build: two.id, expected: one.id))
            try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(good)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/channels/production", method: .get) {
                let state = try JSONDecoder().decode(ChannelState.self, from: Data(bytes($0.body)))
                #expect(state.build == two.id)
                #expect(state.history.map(\.build) == [two.id, one.id])
            }
            try await client.execute(uri: "/v1/channels/Bad%20Name", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/channels/nothing", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("a channel move shows in the next manifest and query at once (the channel's build is kept in memory between moves)")
    func movesShowAtOnce() async throws {
        let test = try TestService()
        defer { test.remove() }
        let one = try SyntheticBuild(seed: 1), two = try SyntheticBuild(seed: 3)
        let query = "/v1/channels/production/query?device=iPad12,1&tags=Green"
        let answerOne = try StableJSON.encode(VersionedJSON(try DeviceQuery.answer(one.manifest, device: "iPad12,1", tags: ["Green"])))
        let answerTwo = try StableJSON.encode(VersionedJSON(try DeviceQuery.answer(two.manifest, device: "iPad12,1", tags: ["Green"])))
        #expect(answerOne != answerTwo)
        try await test.application.test(.router) { client in
            try await publish(one, channel: "production", client: client)
            try await publish(two, channel: nil, client: client)
            try await client.execute(uri: query, method: .get) { #expect(bytes($0.body) == answerOne) }
            try await client.execute(uri: "/v1/channels/production/manifest", method: .get) { #expect(bytes($0.body) == one.manifestBytes) }
            // A lost compare-and-swap changes nothing.
            let stale = try StableJSON.encode(ChannelMove(build: two.id, expected: two.id))
            try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(stale)) {
                #expect($0.status == .conflict)
            }
            try await client.execute(uri: query, method: .get) { #expect(bytes($0.body) == answerOne) }
            for (from, to, answer) in [(one, two, answerTwo), (two, one, answerOne)] {
                let move = try StableJSON.encode(ChannelMove(build: to.id, expected: from.id))
                try await client.execute(uri: "/v1/channels/production", method: .put, headers: writeHeaders, body: buffer(move)) {
                    #expect($0.status == .ok)
                }
                try await client.execute(uri: query, method: .get) { #expect(bytes($0.body) == answer) }
                try await client.execute(uri: "/v1/channels/production/manifest", method: .get) {
                    #expect(bytes($0.body) == to.manifestBytes)
                }
            }
        }
    }

    @Test("query answers exactly DeviceQuery's JSON, with no-cache, ETag, 304 and gzip")
    func query() async throws {
        let test = try TestService()
        defer { test.remove() }
        let build = try SyntheticBuild()
        let expected = try StableJSON.encode(VersionedJSON(try DeviceQuery.answer(build.manifest, device: "iPad12,1", tags: ["Green"],
                                                                    installed: ["Red"])))
        // iPhone16,1 has no class in the build: answered for its nearest built class, with a note.
        let nearest = try StableJSON.encode(VersionedJSON(try DeviceQuery.answer(build.manifest, device: "iPhone16,1", tags: [])))
        #expect(String(decoding: nearest, as: UTF8.self).contains("nearest built class iPhone15,2"))
        try await test.application.test(.router) { client in
            try await publish(build, channel: "beta", client: client)
            let uri = "/v1/channels/beta/query?device=iPad12,1&tags=Green&installed=Red"
            let etag = try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(bytes(response.body) == expected)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.vary] == "Accept-Encoding")
                #expect(response.headers[.eTag] == EntityTag.strong(ContentHash.of(expected).hex))
                return response.headers[.eTag]!
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) {
                #expect($0.status == .notModified)
                #expect($0.body.readableBytes == 0)
            }
            try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"]) {
                #expect($0.headers[.contentEncoding] == "gzip")
                #expect($0.headers[.eTag] == EntityTag.strong(ContentHash.of(expected).hex + ".gz"))
                let inflated = try Gzip.decompress(bytes($0.body))
                #expect(inflated == expected)
            }
            try await client.execute(uri: "/v1/channels/beta/query?device=iPhone16,1", method: .get) {
                #expect(bytes($0.body) == nearest)
            }
            try await client.execute(uri: "/v1/channels/beta/query?device=iPad12,1&tags=Gren", method: .get) {
                #expect($0.status == .badRequest)
                #expect(String(decoding: bytes($0.body), as: UTF8.self).contains("unknown tag 'Gren'; known: Green"))
            }
            try await client.execute(uri: "/v1/channels/beta/query?device=Pixel", method: .get) {
                #expect($0.status == .badRequest)
                #expect(String(decoding: bytes($0.body), as: UTF8.self).contains("no bundles for device 'Pixel'"))
            }
            try await client.execute(uri: "/v1/channels/beta/query?tags=Green", method: .get) { #expect($0.status == .badRequest) }
            let many = (0..<300).map { "t\($0)" }.joined(separator: ",")
            try await client.execute(uri: "/v1/channels/beta/query?device=iPad12,1&tags=\(many)", method: .get) {
                #expect($0.status == .badRequest)
            }
            let long = String(repeating: "x", count: 5000)
            try await client.execute(uri: "/v1/channels/beta/query?device=\(long)", method: .get) { #expect($0.status == .uriTooLong) }
            try await client.execute(uri: "/v1/channels/alpha/query?device=iPad12,1", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("manifest: the published bytes, gzip pre-compressed at publish, 304 on a matching tag")
    func manifest() async throws {
        let test = try TestService()
        defer { test.remove() }
        let build = try SyntheticBuild()
        try await test.application.test(.router) { client in
            try await publish(build, channel: "beta", client: client)
            try await client.execute(uri: "/v1/channels/beta/manifest", method: .get) {
                #expect(bytes($0.body) == build.manifestBytes)
                #expect($0.headers[.eTag] == "\"\(build.id)\"")
                #expect($0.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/v1/channels/beta/manifest", method: .get, headers: [.acceptEncoding: "gzip"]) {
                let inflated = try Gzip.decompress(bytes($0.body))
                #expect(inflated == build.manifestBytes)
                #expect($0.headers[.eTag] == "\"\(build.id).gz\"")
            }
            try await client.execute(uri: "/v1/channels/beta/manifest", method: .get, headers: [.ifNoneMatch: "\"\(build.id)\""]) {
                #expect($0.status == .notModified)
            }
        }
        #expect(FileManager.default.fileExists(atPath: test.blobs.gzipPath(of: ContentHash(hex: build.id)!)))
    }

    @Test("bundles: strong ETag, immutable caching, HEAD, ranges, 416, If-Range, 304, 404 for other names")
    func bundles() async throws {
        let test = try TestService()
        defer { test.remove() }
        let build = try SyntheticBuild()
        let (hash, blob) = build.blobs.min { $0.key < $1.key }!
        let uri = "/b/\(hash.hex).tsb"
        try await test.application.test(.router) { client in
            try await publish(build, channel: nil, client: client)
            try await client.execute(uri: uri, method: .get) {
                #expect($0.status == .ok)
                #expect(bytes($0.body) == blob)
                #expect($0.headers[.eTag] == "\"\(hash.hex)\"")
                #expect($0.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect($0.headers[.acceptRanges] == "bytes")
            }
            try await client.execute(uri: uri, method: .head) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentLength] == "\(blob.count)")
                #expect($0.body.readableBytes == 0)
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-16"]) {
                #expect($0.status == .partialContent)
                #expect($0.headers[.contentRange] == "bytes \(blob.count - 16)-\(blob.count - 1)/\(blob.count)")
                #expect(bytes($0.body) == Array(blob.suffix(16)))
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=10-"]) {
                #expect(bytes($0.body) == Array(blob.dropFirst(10)))
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=\(blob.count)-"]) {
                #expect($0.status == .rangeNotSatisfiable)
                #expect($0.headers[.contentRange] == "bytes */\(blob.count)")
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-3", .ifRange: "\"\(hash.hex)\""]) {
                #expect($0.status == .partialContent)
                #expect(bytes($0.body) == Array(blob.prefix(4)))
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-3", .ifRange: "\"stale\""]) {
                #expect($0.status == .ok)
                #expect(bytes($0.body) == blob)
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"\(hash.hex)\""]) {
                #expect($0.status == .notModified)
                #expect($0.headers[.eTag] == "\"\(hash.hex)\"")
            }
            try await client.execute(uri: "/b/\(hash.hex.uppercased()).tsb", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/b/\(String(repeating: "0", count: 64)).tsb", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/b/..%2Fcatalog.sqlite", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/healthz", method: .get) { #expect(String(decoding: bytes($0.body), as: UTF8.self) == "ok\n") }
        }
    }

    @Test("writes are refused outright when the server has no token, and blobs over the limit are 413")
    func writeGuards() async throws {
        let build = try SyntheticBuild()
        let open = try TestService(configuration: ServerConfiguration(token: nil))
        defer { open.remove() }
        try await open.application.test(.router) { client in
            try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(build.manifestBytes)) {
                #expect($0.status == .forbidden)
            }
        }
        let small = try TestService(configuration: ServerConfiguration(token: TestService.token, maxManifestBytes: 100, maxBlobBytes: 10))
        defer { small.remove() }
        let (hash, blob) = build.blobs.first!
        try await small.application.test(.router) { client in
            try await client.execute(uri: "/v1/builds", method: .post, headers: writeHeaders, body: buffer(build.manifestBytes)) {
                #expect($0.status == .contentTooLarge)
            }
            try await client.execute(uri: "/v1/blobs/\(hash.hex)", method: .put, headers: writeHeaders, body: buffer(blob)) {
                #expect($0.status == .contentTooLarge)
            }
        }
        #expect(!small.blobs.contains(hash))
    }
}
