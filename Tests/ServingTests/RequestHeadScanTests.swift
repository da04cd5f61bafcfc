@testable import Serving
import Testing

/// `RequestHeadScan` reads request heads from raw bytes for `BundleConnectionHandler`: it must
/// recognise exactly the bundle requests it may answer, frame every other request to the byte,
/// and give up (`.unframed`) on whatever NIO's decoder should judge instead.
@Suite("Request heads read from raw bytes")
struct RequestHeadScanTests {
    static let hex = String(repeating: "0123456789abcdef", count: 4)

    static func scan(_ text: String) -> RequestHeadScan.Outcome {
        Array(text.utf8).withUnsafeBytes { RequestHeadScan.scan($0) }
    }

    @Test("a bundle GET: its fields (the first Range, as nginx reads it; the others joined when repeated), and the head's exact length; what follows is left alone")
    func bundleGet() {
        let head = "GET /b/\(Self.hex).tsb HTTP/1.1\r\nHost: x\r\nRANGE: bytes=0-1\r\nrange:  bytes=5-6 \r\n"
            + "If-None-Match: \"a\"\r\nIf-Range: \"b\"\r\n\r\n"
        let expected = BundleRequest(isHead: false, hex: Self.hex, isHTTP10: false, keepsAlive: true,
                                     range: "bytes=0-1", ifNoneMatch: "\"a\"", ifRange: "\"b\"")
        #expect(Self.scan(head) == .bundle(expected, headLength: head.utf8.count))
        #expect(Self.scan(head + "GET /next HTTP/1.1\r\n") == .bundle(expected, headLength: head.utf8.count))
    }

    @Test("an object GET (/o/<sha256>, a query allowed) is answered like a bundle's; a suffix, a short digest or capitals are not")
    func objectGet() {
        let head = "GET /o/\(Self.hex) HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n\r\n"
        let expected = BundleRequest(isHead: false, hex: Self.hex, route: .object, isHTTP10: false, keepsAlive: true,
                                     range: "bytes=0-1", ifNoneMatch: nil, ifRange: nil)
        #expect(Self.scan(head) == .bundle(expected, headLength: head.utf8.count))
        if case let .bundle(request, _) = Self.scan("HEAD /o/\(Self.hex)?v=2 HTTP/1.1\r\n\r\n") {
            #expect(request.isHead && request.route == .object)
        } else {
            Issue.record("a HEAD with a query is an object request")
        }
        for target in ["/o/\(Self.hex).tsb", "/o/\(Self.hex.dropLast())", "/o/\(Self.hex.uppercased())", "/x/\(Self.hex)",
                       "/b/\(Self.hex)"] {
            if case .bundle = Self.scan("GET \(target) HTTP/1.1\r\n\r\n") { Issue.record("\(target) is not an object or bundle name") }
        }
    }

    @Test("HEAD, a query after the name, and keep-alive as HTTP/1.0 and 1.1 define it")
    func methodsVersionsAndConnections() {
        let name = "/b/\(Self.hex).tsb"
        func request(_ line: String, _ fields: String = "") -> BundleRequest? {
            if case let .bundle(request, _) = Self.scan("\(line)\r\n\(fields)\r\n") { return request }
            return nil
        }
        #expect(request("HEAD \(name)?v=1 HTTP/1.1")?.isHead == true)
        #expect(request("GET \(name) HTTP/1.1")?.keepsAlive == true)
        #expect(request("GET \(name) HTTP/1.1", "Connection: Keep-Alive, Close\r\n")?.keepsAlive == false)
        #expect(request("GET \(name) HTTP/1.0")?.keepsAlive == false)
        #expect(request("GET \(name) HTTP/1.0", "connection: keep-alive\r\n")?.keepsAlive == true)
        #expect(request("GET \(name) HTTP/1.0", "connection: keep-alive\r\n")?.isHTTP10 == true)
        // An upgrade a bundle answer can ignore.
        #expect(request("GET \(name) HTTP/1.1", "Upgrade: websocket\r\n") != nil)
    }

    @Test("other requests are framed by their head and Content-Length, bundle names included when they carry a body or are spelt otherwise")
    func otherRequestsFramed() {
        let put = "PUT /v1/blobs/\(Self.hex) HTTP/1.1\r\nContent-Length: 12\r\nContent-Length: 12\r\n\r\n"
        #expect(Self.scan(put + "hello") == .other(headLength: put.utf8.count, bodyLength: 12, keepsAlive: true))
        let query = "GET /v1/channels/a/query?device=x HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(Self.scan(query) == .other(headLength: query.utf8.count, bodyLength: 0, keepsAlive: true))
        // Whether the connection outlives the request, as llhttp reads it (Proxy-Connection too).
        for (head, keepsAlive) in [("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", false),
                                   ("GET /healthz HTTP/1.0\r\n\r\n", false),
                                   ("GET /healthz HTTP/1.0\r\nProxy-Connection: keep-alive\r\n\r\n", true),
                                   ("GET /healthz HTTP/1.1\r\nproxy-connection: close\r\n\r\n", false)] {
            #expect(Self.scan(head) == .other(headLength: head.utf8.count, bodyLength: 0, keepsAlive: keepsAlive), "\(head)")
        }
        for head in ["GET /b/\(Self.hex).tsb HTTP/1.1\r\nContent-Length: 3\r\n\r\n",
                     "GET /b/\(Self.hex.uppercased()).tsb HTTP/1.1\r\n\r\n",
                     "GET /b/\(Self.hex).tsbx HTTP/1.1\r\n\r\n",
                     "GET /b/\(Self.hex.dropLast()).tsb HTTP/1.1\r\n\r\n",
                     "POST /b/\(Self.hex).tsb HTTP/1.1\r\n\r\n"] {
            let body = head.contains("Content-Length: 3") ? 3 : 0
            #expect(Self.scan(head) == .other(headLength: head.utf8.count, bodyLength: body, keepsAlive: true), "\(head)")
        }
    }

    @Test("every prefix of a request is incomplete until its last byte")
    func prefixesIncomplete() {
        let head = "GET /b/\(Self.hex).tsb HTTP/1.1\r\nHost: x\r\n\r\n"
        for count in 0..<head.utf8.count {
            #expect(Self.scan(String(head.utf8.prefix(count))!) == .incomplete, "\(count) bytes")
        }
    }

    @Test("whatever NIO's decoder should judge is unframed: chunked bodies, bad lines, other versions, oversized heads")
    func unframed() {
        let name = "/b/\(Self.hex).tsb"
        let cases = [
            "POST /v1/builds HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "PUT /v1/blobs/x HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
            "PUT /v1/blobs/x HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nRange: bytes=0-1\r\n folded\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nRange : bytes=0-1\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nRange: bytes=0-1\nHost: x\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nRange: by\u{1}tes\r\n\r\n",
            "GET \(name) HTTP/2.0\r\n\r\n",
            "GET  \(name) HTTP/1.1\r\n\r\n",
            "\rGET \(name) HTTP/1.1\r\n\r\n",
            "GET \(name) HTTP/1.1\r\nX: " + String(repeating: "a", count: RequestHeadScan.headLimit),
            // Lines ended by bare LFs never end in CR LF CR LF: NIO's decoder answers them.
            "GET \(name) HTTP/1.1\nHost: x\n\n",
            "GET /healthz HTTP/1.1\n",
        ]
        for text in cases { #expect(Self.scan(text) == .unframed, "\(text.prefix(80))") }
    }

    @Test("as nginx: CONNECT is refused with 400, a Transfer-Encoding other than chunked with 501; an upgrade is framed, its Upgrade lines found to be dropped")
    func refusedAndUpgrades() {
        let connect = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"
        #expect(Self.scan(connect + "GET /x HTTP/1.1\r\n") == .refused(status: 400, headLength: connect.utf8.count))
        for encoding in ["identity", "gzip", "gzip, chunked", "chunked, chunked"] {
            let head = "GET /healthz HTTP/1.1\r\nTransfer-Encoding: \(encoding)\r\n\r\n"
            #expect(Self.scan(head) == .refused(status: 501, headLength: head.utf8.count), "\(encoding)")
        }
        #expect(Self.scan("POST /v1/builds HTTP/1.1\r\nTransfer-Encoding:  Chunked \r\n\r\n") == .unframed)
        let upgrade = "GET /healthz HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\nupgrade: websocket\r\n\r\n"
        #expect(Self.scan(upgrade) == .other(headLength: upgrade.utf8.count, bodyLength: 0, keepsAlive: true))
        let lines = Array(upgrade.utf8).withUnsafeBytes { RequestHeadScan.upgradeLines(in: $0) }
        let bytes = Array(upgrade.utf8)
        #expect(lines.map { String(decoding: bytes[$0], as: UTF8.self) } == ["Upgrade: h2c\r\n", "upgrade: websocket\r\n"])
    }

    @Test("an empty line before a request is skipped; a head just over the limit is judged the same however it is split")
    func emptyLinesAndTheLimit() {
        #expect(Self.scan("\r\nGET /b/\(Self.hex).tsb HTTP/1.1\r\n\r\n") == .emptyLine(length: 2))
        #expect(Self.scan("\r") == .incomplete)
        // A head ending within the first `headLimit + 4` bytes is framed once they are all in,
        // and incomplete before, whatever the split.
        let prefix = "GET /healthz HTTP/1.1\r\nX: "
        let head = prefix + String(repeating: "a", count: RequestHeadScan.headLimit + 2 - prefix.utf8.count - 2) + "\r\n\r\n"
        #expect(head.utf8.count == RequestHeadScan.headLimit + 4)
        #expect(Self.scan(head) == .other(headLength: head.utf8.count, bodyLength: 0, keepsAlive: true))
        for cut in [RequestHeadScan.headLimit, RequestHeadScan.headLimit + 1, RequestHeadScan.headLimit + 3] {
            #expect(Self.scan(String(head.utf8.prefix(cut))!) == .incomplete, "\(cut) bytes")
        }
    }
}
