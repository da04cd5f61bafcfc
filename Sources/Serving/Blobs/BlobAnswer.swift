/// What a bundle request (`GET`/`HEAD /b/<sha256>.tsb`) is answered, decided in one place for
/// both ways a bundle is sent: from the connection's bytes (`BundleConnectionHandler`) and by
/// the Hummingbird route (`BlobResponder`).
///
/// Strong ETag `"<sha256>"`, cached for a year as immutable (the name changes when the bytes
/// do), one byte range (with `If-Range`), `416` past the end, `304` on `If-None-Match`. Range
/// parsing is `ByteRange`, checked against nginx by the live tests.
struct BlobAnswer {
    var status: Int
    /// The blob's digest, lower-case hex: its entity tag.
    let digest: String
    /// The blob's size.
    let size: Int
    /// The `content-range` field: the part sent (`206`), or nil with `isUnsatisfiable` (`416`).
    private(set) var contentRange: ClosedRange<Int>?
    private(set) var isUnsatisfiable = false
    /// The `content-length` field; nil for `304`, which has no content fields.
    private(set) var contentLength: Int?
    /// The bytes to send (offsets inclusive); nil when no body goes out (HEAD, 304, 416, an empty blob).
    private(set) var body: ClosedRange<Int>?

    /// The answer for a blob named `digest` (lower-case hex) of `size` bytes; the header values
    /// are the request's, several fields of one name joined with commas (nil when absent).
    init(digest: String, size: Int, isHead: Bool, ifNoneMatch: String?, range: String?, ifRange: String?) {
        self.digest = digest
        self.size = size
        // Most requests carry neither condition: no tag to build for them.
        let etag = ifNoneMatch == nil && ifRange == nil ? "" : EntityTag.strong(digest)
        if ifNoneMatch != nil, EntityTag.noneMatchHits(ifNoneMatch, etag: etag) {
            status = 304
            return
        }
        var decision = ByteRange.decide(range, length: size)
        if ifRange != nil, !EntityTag.ifRangeAllowsRange(ifRange, etag: etag) { decision = .full }
        if size == 0 {
            // Nothing to range over (ByteRange decides `.full` for an empty body, as nginx does).
            status = 200
            contentLength = 0
            return
        }
        let part: ClosedRange<Int>
        switch decision {
        case .unsatisfiable:
            status = 416
            isUnsatisfiable = true
            contentLength = 0
            return
        case .full:
            status = 200
            part = 0...(size - 1)
        case let .partial(range):
            status = 206
            part = range
            contentRange = range
        }
        contentLength = part.count
        if !isHead { body = part }
    }

    /// Header fields, lower-case names, in the order they are sent.
    var headers: [(String, String)] {
        var fields = [("etag", EntityTag.strong(digest)), ("cache-control", Self.cacheControl), ("accept-ranges", "bytes")]
        guard let contentLength else { return fields }
        fields.append(("content-type", Self.contentType))
        if contentRange != nil || isUnsatisfiable {
            fields.append(("content-range", ByteRange.contentRange(contentRange, length: size)))
        }
        fields.append(("content-length", String(contentLength)))
        return fields
    }

    static let cacheControl = "public, max-age=31536000, immutable"
    static let contentType = "application/octet-stream"
}
