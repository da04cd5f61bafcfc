import CatalogStore
import Hummingbird
import TesseraCore

/// Serves content-addressed blobs (`/b/<sha256>.tsb`) for CDNs and resumable downloads: strong
/// ETag `"<sha256>"`, cached for a year as immutable (the name changes when the bytes do),
/// `HEAD`, one byte range (with `If-Range`), `416` past the end, `304` on `If-None-Match`.
///
/// Not Hummingbird's `FileMiddleware`: it answers suffix and past-the-end ranges wrongly and
/// sends weak ETags. Range parsing is `ByteRange`, checked against nginx by the live tests.
struct BlobResponder: Sendable {
    let open: OpenBlobCache
    /// Bodies up to this size are read with one `pread` and sent as one buffer; larger ones stream (`BlobBody`).
    static let directReadLimit = 256 << 10

    init(blobs: BlobStore) { open = OpenBlobCache(blobs: blobs) }

    /// The digest in a bundle file name: 64 lower-case hex digits and `.tsb`, nothing else.
    static func digest(inFileName name: String) -> ContentHash? {
        guard name.hasSuffix(".tsb") else { return nil }
        let hex = String(name.dropLast(4))
        guard hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return ContentHash(hex: hex)
    }

    func respond(to request: Request, context: ServeRequestContext, fileName: String) throws -> Response {
        guard let digest = Self.digest(inFileName: fileName), let blob = open.blob(digest) else {
            throw HTTPError(.notFound, message: "no bundle \(fileName)")
        }
        let length = blob.size
        let etag = EntityTag.strong(digest.hex)
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            .acceptRanges: "bytes",
        ]
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/octet-stream"
        var decision = ByteRange.decide(request.headers[.range], length: length)
        if !EntityTag.ifRangeAllowsRange(request.headers[.ifRange], etag: etag) { decision = .full }
        if length == 0 {
            // Nothing to range over (ByteRange decides `.full` for an empty body, as nginx does).
            headers[.contentLength] = "0"
            return Response(status: .ok, headers: headers)
        }
        let status: HTTPResponse.Status
        let range: ClosedRange<Int>
        switch decision {
        case .unsatisfiable:
            headers[.contentRange] = ByteRange.contentRange(nil, length: length)
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .full:
            status = .ok
            range = 0...(length - 1)
        case let .partial(part):
            status = .partialContent
            range = part
            headers[.contentRange] = ByteRange.contentRange(part, length: length)
        }
        headers[.contentLength] = "\(range.count)"
        if request.method == .head { return Response(status: status, headers: headers) }
        guard range.count > Self.directReadLimit else {
            guard let bytes = BlobBody.bytes(of: blob, range: range, allocator: context.channel.allocator) else {
                throw HTTPError(.internalServerError, message: "reading bundle \(fileName) failed")
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
        }
        return Response(status: status, headers: headers, body: BlobBody.streaming(blob, range: range, channel: context.channel))
    }
}
