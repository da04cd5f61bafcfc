import NIOCore
@testable import Serving
import Testing

/// The answers `BundleConnectionHandler` writes without NIO's encoder: their head must be the
/// status line and `BlobAnswer.headers` (what the router's route sends), byte for byte.
@Suite("Bundle answer heads")
struct BlobAnswerHeadTests {
    static let hex = String(repeating: "89abcdef01234567", count: 4)

    static func head(_ answer: BlobAnswer, http10: Bool = false, connection: StaticString? = nil) -> String {
        var buffer = ByteBufferAllocator().buffer(capacity: 64)
        answer.writeHead(into: &buffer, http10: http10, date: "Thu, 26 Nov 2026 04:30:08 GMT", server: "tessera",
                         connection: connection)
        return String(buffer: buffer)
    }

    /// What the route would send for `answer`: NIO writes the fields in the order given.
    static func expected(_ answer: BlobAnswer, status: String, version: String = "HTTP/1.1", extra: String = "") -> String {
        "\(version) \(status)\r\n" + answer.headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            + "date: Thu, 26 Nov 2026 04:30:08 GMT\r\nserver: tessera\r\n\(extra)\r\n"
    }

    @Test("200, 206 (a suffix range), 304 and 416 heads are the route's fields in the route's order")
    func headsMatchFields() {
        let whole = BlobAnswer(digest: Self.hex, size: 638_926, isHead: false, ifNoneMatch: nil, range: nil, ifRange: nil)
        #expect(Self.head(whole) == Self.expected(whole, status: "200 OK"))
        #expect(whole.headers.map(\.0) == ["etag", "cache-control", "accept-ranges", "content-type", "content-length"])

        let suffix = BlobAnswer(digest: Self.hex, size: 638_926, isHead: false, ifNoneMatch: nil, range: "bytes=-65536", ifRange: nil)
        #expect(suffix.body == 573_390...638_925)
        #expect(Self.head(suffix) == Self.expected(suffix, status: "206 Partial Content"))
        #expect(Self.head(suffix).contains("\r\ncontent-range: bytes 573390-638925/638926\r\ncontent-length: 65536\r\n"))

        let unchanged = BlobAnswer(digest: Self.hex, size: 10, isHead: false, ifNoneMatch: "\"\(Self.hex)\"", range: nil, ifRange: nil)
        #expect(unchanged.status == 304 && unchanged.body == nil)
        #expect(Self.head(unchanged) == Self.expected(unchanged, status: "304 Not Modified"))
        #expect(!Self.head(unchanged).contains("content-length"))

        let past = BlobAnswer(digest: Self.hex, size: 10, isHead: false, ifNoneMatch: nil, range: "bytes=10-", ifRange: nil)
        #expect(Self.head(past) == Self.expected(past, status: "416 Range Not Satisfiable"))
        #expect(Self.head(past).contains("\r\ncontent-range: bytes */10\r\ncontent-length: 0\r\n"))
    }

    @Test("an HTTP/1.0 request's version, and the connection field when the request needs one")
    func versionAndConnection() {
        let head = BlobAnswer(digest: Self.hex, size: 1, isHead: true, ifNoneMatch: nil, range: nil, ifRange: nil)
        #expect(head.body == nil && head.contentLength == 1)
        #expect(Self.head(head, http10: true, connection: "keep-alive")
                == Self.expected(head, status: "200 OK", version: "HTTP/1.0", extra: "connection: keep-alive\r\n"))
        #expect(Self.head(head, connection: "close") == Self.expected(head, status: "200 OK", extra: "connection: close\r\n"))
    }
}
