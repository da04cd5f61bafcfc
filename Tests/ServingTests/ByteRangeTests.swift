import Serving
import Testing

@Suite("Byte ranges and entity tags")
struct ByteRangeTests {
    @Test("single, suffix and open-ended ranges give the bytes nginx gives", arguments: [
        ("bytes=0-0", RangeDecision.partial(0...0)),
        ("bytes=-10", .partial(990...999)),
        ("bytes=-2000", .partial(0...999)),
        ("bytes=990-", .partial(990...999)),
        ("bytes=999-", .partial(999...999)),
        ("bytes=0-5000", .partial(0...999)),
        ("bytes= 0-1", .partial(0...1)),
        ("bytes=0-1 ", .partial(0...1)),
        ("Bytes=2-3", .partial(2...3)),
        ("bytes=1-2,-0", .partial(1...2)),
    ])
    func satisfiable(header: String, expected: RangeDecision) {
        #expect(ByteRange.decide(header, length: 1000) == expected)
    }

    @Test("past the end, reversed, empty suffix and malformed sets are 416", arguments: [
        "bytes=1000-", "bytes=5-2", "bytes=-0", "bytes=abc", "bytes=-", "bytes=0-1x", "bytes=99999999999999999999999-",
    ])
    func unsatisfiable(header: String) {
        #expect(ByteRange.decide(header, length: 1000) == .unsatisfiable)
        #expect(ByteRange.contentRange(nil, length: 1000) == "bytes */1000")
    }

    @Test("no header, another unit and several ranges get the whole body", arguments: [
        nil, "items=0-1", "bytes=0-1,5-6", "bytes=0-0,-1", "bytes=0-999,0-999",
    ] as [String?])
    func whole(header: String?) {
        #expect(ByteRange.decide(header, length: 1000) == .full)
    }

    @Test("Content-Range names inclusive offsets and the length")
    func contentRange() {
        #expect(ByteRange.contentRange(990...999, length: 1000) == "bytes 990-999/1000")
    }

    @Test("If-None-Match compares weakly and honours lists and *; If-Range only the identical strong tag")
    func entityTags() {
        let tag = EntityTag.strong("abc")
        #expect(tag == "\"abc\"")
        #expect(EntityTag.noneMatchHits("\"x\", W/\"abc\"", etag: tag))
        #expect(EntityTag.noneMatchHits("*", etag: tag))
        #expect(!EntityTag.noneMatchHits("\"abd\"", etag: tag))
        #expect(!EntityTag.noneMatchHits(nil, etag: tag))
        #expect(EntityTag.ifRangeAllowsRange(nil, etag: tag))
        #expect(EntityTag.ifRangeAllowsRange("\"abc\"", etag: tag))
        #expect(!EntityTag.ifRangeAllowsRange("W/\"abc\"", etag: tag))
        #expect(!EntityTag.ifRangeAllowsRange("Tue, 15 Nov 1994 08:12:31 GMT", etag: tag))
    }
}
