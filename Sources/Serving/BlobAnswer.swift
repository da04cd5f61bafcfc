/// What a bundle request (`GET`/`HEAD /b/<sha256>.tsb`) is answered, decided in one place for
/// both ways a bundle is sent: by the event-loop handler with `sendfile` (`BundleChannelHandler`)
/// and by the Hummingbird route (`BlobResponder`).
///
/// Strong ETag `"<sha256>"`, cached for a year as immutable (the name changes when the bytes
/// do), one byte range (with `If-Range`), `416` past the end, `304` on `If-None-Match`. Range
/// parsing is `ByteRange`, checked against nginx by the live tests.
struct BlobAnswer {
    var status: Int
    /// Header fields, lower-case names, in the order they are sent.
    var headers: [(String, String)]
    /// The bytes to send (offsets inclusive); nil when no body goes out (HEAD, 304, 416, an empty blob).
    var body: ClosedRange<Int>?

    /// The answer for a blob named `digest` (lower-case hex) of `size` bytes; the header values
    /// are the request's, several fields of one name joined with commas (nil when absent).
    init(digest: String, size: Int, isHead: Bool, ifNoneMatch: String?, range: String?, ifRange: String?) {
        let etag = EntityTag.strong(digest)
        headers = [("etag", etag), ("cache-control", "public, max-age=31536000, immutable"), ("accept-ranges", "bytes")]
        body = nil
        if EntityTag.noneMatchHits(ifNoneMatch, etag: etag) {
            status = 304
            return
        }
        headers.append(("content-type", "application/octet-stream"))
        var decision = ByteRange.decide(range, length: size)
        if !EntityTag.ifRangeAllowsRange(ifRange, etag: etag) { decision = .full }
        if size == 0 {
            // Nothing to range over (ByteRange decides `.full` for an empty body, as nginx does).
            status = 200
            headers.append(("content-length", "0"))
            return
        }
        let range: ClosedRange<Int>
        switch decision {
        case .unsatisfiable:
            status = 416
            headers.append(("content-range", ByteRange.contentRange(nil, length: size)))
            headers.append(("content-length", "0"))
            return
        case .full:
            status = 200
            range = 0...(size - 1)
        case let .partial(part):
            status = 206
            range = part
            headers.append(("content-range", ByteRange.contentRange(part, length: size)))
        }
        headers.append(("content-length", "\(range.count)"))
        if !isHead { body = range }
    }
}
