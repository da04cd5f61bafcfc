import Hummingbird

/// A small JSON document (a manifest, a query answer) answered with revalidation: `no-cache`, a
/// strong ETag per encoding, `304` on a matching `If-None-Match`, gzip when accepted.
struct Representation: Sendable {
    /// Identity bytes and their tag.
    var body: [UInt8]
    var etag: String
    /// The gzip form, when there is one (tagged `"<tag>.gz"`, since a strong tag names one encoding).
    var gzip: [UInt8]?
    var contentType = "application/json"
    /// `no-cache` for what changes under its URL; a patch, named by its two manifests, is immutable.
    var cacheControl = "no-cache"

    func response(to request: Request) -> Response {
        let useGzip = gzip != nil && Self.acceptsGzip(request.headers[.acceptEncoding])
        let tag = useGzip ? EntityTag.strong(etag + ".gz") : EntityTag.strong(etag)
        var headers: HTTPFields = [
            .contentType: contentType,
            .cacheControl: cacheControl,
            .eTag: tag,
            .vary: "Accept-Encoding",
        ]
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        let bytes = useGzip ? gzip ?? body : body
        if useGzip { headers[.contentEncoding] = "gzip" }
        headers[.contentLength] = "\(bytes.count)"
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether `Accept-Encoding` lists gzip with a non-zero quality.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard parts.first == "gzip" || parts.first == "x-gzip" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }
}
