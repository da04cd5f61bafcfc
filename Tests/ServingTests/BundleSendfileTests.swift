import Delivery
import Foundation
import Manifests
@testable import Serving
import TestServers
import Testing
import TesseraCore

/// Bundles are answered two ways: by `BundleConnectionHandler` from the connection's bytes (a
/// body up to `bufferedBodyLimit` in the head's buffer; a larger one starting there and going on
/// from the file with `sendfile`), and by the Hummingbird route on a connection handed to NIO's
/// codec. Both must give the same answers, in the requests' order, and a connection comes back
/// to the first way after any request it can frame. (`LiveServeTests.nginxAgrees` holds the
/// answers to nginx; `gracefulShutdown` holds them to SIGTERM.)
@Suite("Bundles answered from the connection (live)", .serialized)
struct BundleSendfileTests {
    @Test("bundle requests alone, pipelined behind queries, and behind a chunked request (the route) get the same status, headers and bytes, in order")
    func everyPathAnswersAlike() async throws {
        let served = try await PublishedSamples()
        defer { served.stop() }
        let build = served.build, server = served.server, largest = served.largest
        let hex = largest.sha256.hex, length = largest.bytes, path = "/b/\(hex).tsb"
        let limit = BundleAnswerWriter.bufferedBodyLimit
        let bundleRequests: [(method: String, path: String, headers: [(String, String)])] = [
            ("GET", path, [("Range", "bytes=-65536")]),
            ("GET", path, []),
            ("HEAD", path, [("Range", "bytes=10-19")]),
            ("GET", path, [("If-None-Match", "\"\(hex)\"")]),
            ("GET", path, [("Range", "bytes=\(length)-")]),
            ("GET", path, [("Range", "bytes=100-"), ("If-Range", "\"\(hex)\"")]),
            ("GET", path, [("Range", "bytes=100-"), ("If-Range", "\"other\"")]),
            ("GET", path + "?v=1", [("Range", "bytes=0-0")]),
            // Up to `bufferedBodyLimit` bytes go out with the head; one more, its first 4 KiB with
            // the head and the rest with `sendfile`; past 128 KiB, its first 64 KiB with the head.
            ("GET", path, [("Range", "bytes=1-\(limit)")]),
            ("GET", path, [("Range", "bytes=1-\(limit + 1)")]),
            ("GET", path, [("Range", "bytes=3-\((128 << 10) + 3)")]),
        ]
        let query = (method: "GET", path: "/v1/channels/production/query?device=iPhone15,2&tags=Green", headers: [(String, String)]())
        let alone = try bundleRequests.map { try RawHTTP.request(port: server.port, method: $0.method, path: $0.path, headers: $0.headers) }
        let queryAnswer = try RawHTTP.request(port: server.port, path: query.path)
        #expect(queryAnswer.status == 200)
        let behindQueries = try RawHTTP.pipeline(port: server.port, bundleRequests.flatMap { [query, $0] })
        try #require(behindQueries.count == 2 * bundleRequests.count)
        // A chunked request first: the codec keeps the connection, the route answers the bundles.
        let health = (method: "GET", path: "/healthz", headers: [(String, String)]())
        let viaRoute = try RawHTTP.pipeline(port: server.port, [health] + bundleRequests, chunked: [0])
        try #require(viaRoute.count == 1 + bundleRequests.count)
        #expect(viaRoute[0].status == 200 && viaRoute[0].body == Array("ok\n".utf8))
        let ignored: Set<String> = ["date", "connection"]
        for (index, request) in bundleRequests.enumerated() {
            let label = "\(request.method) \(request.headers)"
            let direct = alone[index]
            #expect(behindQueries[2 * index].status == 200 && behindQueries[2 * index].body == queryAnswer.body, "\(label)")
            for other in [behindQueries[2 * index + 1], viaRoute[1 + index]] {
                #expect(other.status == direct.status, "\(label)")
                #expect(other.body == direct.body, "\(label)")
                #expect(other.headers.filter { !ignored.contains($0.key) } == direct.headers.filter { !ignored.contains($0.key) },
                        "\(label)")
            }
            // IMF-fixdate, as Hummingbird dates its answers: "Mon, 23 Nov 2026 14:45:11 GMT".
            let date = try #require(direct.header("Date"))
            #expect(date.count == 29 && date.hasSuffix(" GMT") && date.count == viaRoute[1 + index].header("Date")?.count, "\(date)")
        }
        #expect(alone.map(\.status) == [206, 200, 206, 304, 416, 206, 200, 206, 206, 206, 206])
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: "\(build)/\(largest.path)")))
        try #require(length > (128 << 10) + 4)
        #expect(alone[0].body == Array(file.suffix(65536)))
        #expect(alone[8].body == Array(file[1...limit]))
        #expect(alone[9].body == Array(file[1...(limit + 1)]))
        #expect(alone[10].body == Array(file[3...((128 << 10) + 3)]))
        #expect(ContentHash.of(alone[1].body) == largest.sha256)
        #expect(alone[2].body.isEmpty && alone[2].header("Content-Length") == "10")
        // One log line per request, whichever way it was answered.
        #expect(server.stop() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        #expect(log.components(separatedBy: "GET \(path) 206 65536 ").count - 1 == 3)
        #expect(log.components(separatedBy: "HEAD \(path) 206 0 ").count - 1 == 3)
        #expect(log.components(separatedBy: "GET \(path) 304 0 ").count - 1 == 3)
    }

    @Test("a request arriving a byte at a time, an upload refused before its body, and a malformed request: each answered, the bundles behind them exact")
    func framingAcrossReadsAndRequests() async throws {
        let served = try await PublishedSamples()
        defer { served.stop() }
        let server = served.server, hex = served.largest.sha256.hex
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: "\(served.build)/\(served.largest.path)")))
        let bundle = "GET /b/\(hex).tsb HTTP/1.1\r\nHost: x\r\nRange: bytes=-100\r\n\r\n"
        // Byte by byte: the head is read across 60+ reads.
        let slow = try RawHTTP.Stream(port: server.port)
        for byte in bundle.utf8 { slow.send([byte]) }
        let first = try #require(slow.readResponse())
        #expect(first.status == 206 && first.body == Array(file.suffix(100)))
        // An upload without the token, its body behind the head, then a bundle request: the
        // refusal, then the bundle, on the same connection.
        let body = [UInt8](repeating: 7, count: 3000)
        slow.send(Array("PUT /v1/blobs/\(hex) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
                  + Array(bundle.utf8))
        let refused = try #require(slow.readResponse())
        #expect(refused.status == 401)
        let after = try #require(slow.readResponse())
        #expect(after.status == 206 && after.body == Array(file.suffix(100)))
        // A malformed request goes to NIO's decoder, which refuses it; the server goes on.
        let bad = try RawHTTP.Stream(port: server.port)
        bad.send(Array("GET /b/\(hex).tsb HTTP/1.1\r\nBad Header: x\r\n\r\n".utf8))
        let refusal = bad.readResponse()
        #expect(refusal == nil || refusal?.status == 400)
        #expect(try RawHTTP.request(port: server.port, path: "/b/\(hex).tsb", headers: [("Range", "bytes=0-9")]).body
                == Array(file.prefix(10)))
    }

    @Test("behind a request or response that ends the connection, and from a half-closed client, the server answers as its HTTP codec alone would; CONNECT, unknown transfer codings and upgrades as nginx answers them")
    func connectionEndsAsTheCodecDecides() async throws {
        let served = try await PublishedSamples()
        defer { served.stop() }
        let server = served.server, hex = served.largest.sha256.hex
        let bundle = "GET /b/\(hex).tsb HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n"
        // `Connection: close` on a request the codec answers: nothing behind it is answered.
        let closing = try RawHTTP.Stream(port: server.port)
        closing.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n\(bundle)".utf8))
        #expect(closing.readResponse()?.status == 200)
        #expect(closing.readResponse() == nil)
        // HTTP/1.0 without keep-alive: the codec refuses what follows, as it always did.
        let old = try RawHTTP.Stream(port: server.port, timeout: 2)
        old.send(Array("GET /healthz HTTP/1.0\r\n\r\n\(bundle)".utf8))
        #expect(old.readResponse()?.status == 200)
        #expect(old.readResponse().map(\.status) != 206)
        // A CONNECT is refused as nginx refuses it (400, then the connection closes): what follows
        // is never read, so never a bundle request.
        let tunnel = try RawHTTP.Stream(port: server.port, timeout: 2)
        tunnel.send(Array("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\(bundle)".utf8))
        #expect(tunnel.readResponse()?.status == 400)
        #expect(tunnel.readResponse() == nil)
        // A Transfer-Encoding nginx does not implement: 501 once, then closed (NIO's codec answered 200, then 400).
        let identity = try RawHTTP.Stream(port: server.port, timeout: 2)
        identity.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\n".utf8))
        #expect(identity.readResponse()?.status == 501)
        #expect(identity.readResponse() == nil)
        // An upgrade is ignored, as nginx ignores it: the request and the one after it are answered.
        let upgrade = try RawHTTP.Stream(port: server.port, timeout: 2)
        upgrade.send(Array(("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                            + "HTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n\(bundle)").utf8))
        #expect(upgrade.readResponse()?.status == 200)
        #expect(upgrade.readResponse()?.status == 200)
        #expect(upgrade.readResponse()?.status == 206)
        // A client that half-closes after pipelining three requests gets all three answers,
        // though two were held behind the first while the codec answered it.
        let halfClosed = try RawHTTP.Stream(port: server.port)
        halfClosed.send(Array(String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: 2).utf8) + Array(bundle.utf8))
        halfClosed.closeWrite()
        #expect(halfClosed.readResponse()?.status == 200)
        #expect(halfClosed.readResponse()?.status == 200)
        #expect(halfClosed.readResponse()?.status == 206)
        // Lines ended by bare LFs are answered, as nginx and the codec answer them (issue 39):
        // they used to wait for a CR LF CR LF that never came.
        let bare = try RawHTTP.Stream(port: server.port, timeout: 5)
        bare.send(Array("GET /healthz HTTP/1.1\nHost: x\n\n".utf8))
        #expect(bare.readResponse() != nil)
    }

    @Test("a blob removed from the store and uploaded again is still served whole and exact, though its open descriptor was kept")
    func reuploadedBlobServedExactly() throws {
        let folder = LiveServeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(folder: folder)
        defer { server.stop() }
        var generator = SplitMix(state: 7)
        // Large enough that both the whole blob and a 64 KiB suffix go out partly with `sendfile`.
        var blob = [UInt8](repeating: 0, count: BlobResponder.directReadLimit + 40_000)
        blob.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 8) { bytes.storeBytes(of: generator.next(), toByteOffset: index, as: UInt64.self) }
        }
        let digest = ContentHash.of(blob), path = "/b/\(digest.hex).tsb"
        let auth = [("Authorization", "Bearer \(ServeProcess.token)")]
        func downloads() throws -> [RawHTTP.Response] {
            [try RawHTTP.request(port: server.port, path: path),
             try RawHTTP.request(port: server.port, path: path, headers: [("Range", "bytes=-65536")])]
        }
        #expect(try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/blobs/\(digest.hex)", headers: auth, body: blob).status == 201)
        let first = try downloads()  // the server now keeps the blob open
        let stored = "\(server.store)/blobs/\(digest.hex.prefix(2))/\(digest.hex)"
        var before = stat(), after = stat()
        #expect(stat(stored, &before) == 0)
        try FileManager.default.removeItem(atPath: stored)
        #expect(try RawHTTP.request(port: server.port, method: "PUT", path: "/v1/blobs/\(digest.hex)", headers: auth, body: blob).status == 201)
        // A new file (temporary + rename); the old inode cannot be reused while the server holds it open.
        #expect(stat(stored, &after) == 0 && after.st_ino != before.st_ino)
        let second = try downloads()
        for answers in [first, second] {
            #expect(answers.map(\.status) == [200, 206])
            #expect(answers[0].body == blob)
            #expect(answers[1].body == Array(blob.suffix(65536)))
            #expect(answers[1].header("Content-Range") == "bytes \(blob.count - 65536)-\(blob.count - 1)/\(blob.count)")
        }
    }

    @Test("a client pipelining 2,000 range requests without reading: the server stops reading them, its memory stays bounded, and every answer arrives exact once the client reads")
    func unreadAnswersDoNotHoldBytes() async throws {
        let served = try await PublishedSamples()
        defer { served.stop() }
        let server = served.server, largest = served.largest
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: "\(served.build)/\(largest.path)")))
        let count = 2_000  // 131 MB of 64 KiB answers if the server answered them all at once
        let request = (method: "GET", path: "/b/\(largest.sha256.hex).tsb", headers: [("Range", "bytes=-65536")])
        let before = server.residentBytes
        var stalled = 0
        let answers = try RawHTTP.pipeline(port: server.port, Array(repeating: request, count: count)) {
            Thread.sleep(forTimeInterval: 1.5)
            stalled = server.residentBytes
        }
        #expect(stalled - before < 48 << 20, "RSS grew from \(before) to \(stalled) bytes while the client read nothing")
        #expect(answers.count == count)
        #expect(answers.allSatisfy { $0.status == 206 && $0.body == Array(file.suffix(65536)) })
    }
}

/// A server with the Samples build published to `production`, and that build's largest bundle.
private struct PublishedSamples {
    let build: String
    let folder: String
    let server: ServeProcess
    let largest: BundleEntry

    init() async throws {
        let build = try await SamplesBuild.get(), folder = LiveServeTests.temporaryFolder()
        let server = try ServeProcess(folder: folder)
        do {
            await #expect(try LiveServeTests.publish(build, to: server, channel: "production").status == 0)
            largest = try #require(try ManifestWriter.read(from: "\(build)/manifest.json").bundles.max { $0.bytes < $1.bytes })
        } catch {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        (self.build, self.folder, self.server) = (build, folder, server)
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
