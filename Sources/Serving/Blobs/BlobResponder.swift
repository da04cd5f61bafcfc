import Hummingbird
import PublishedBuilds
import TesseraCore

/// Serves content-addressed blobs (`/b/<sha256>.tsb`) and objects (`/o/<sha256>`) through Hummingbird's router: the answer
/// is `BlobAnswer`'s, the body read with `pread` (`BlobBody`). Most bundle requests never get
/// here: `BundleConnectionHandler` answers them from the connection's bytes; this route takes
/// those it passes on (an unknown blob, a failed read, any request on a connection handed to
/// NIO's codec for good) and the in-process route tests.
///
/// Not Hummingbird's `FileMiddleware`: it answers suffix and past-the-end ranges wrongly and
/// sends weak ETags.
struct BlobResponder: Sendable {
    let open: OpenBlobCache
    let route: BlobRoute
    /// Bodies up to this size are read with one `pread` and sent as one buffer; larger ones stream (`BlobBody`).
    static let directReadLimit = 256 << 10

    init(open: OpenBlobCache, route: BlobRoute = .bundle) {
        self.open = open
        self.route = route
    }

    /// The digest in a bundle file name: 64 lower-case hex digits and `.tsb`, nothing else (an
    /// object's: the digits alone).
    static func digest<Name: StringProtocol>(inFileName name: Name, route: BlobRoute = .bundle) -> ContentHash? {
        guard name.hasSuffix(route.suffix) else { return nil }
        let hex = name.dropLast(route.suffix.count)
        guard hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return ContentHash(hex: String(hex))
    }

    func respond(to request: Request, context: ServeRequestContext, fileName: String) throws -> Response {
        guard let digest = Self.digest(inFileName: fileName, route: route), let blob = open.blob(digest) else {
            throw HTTPError(.notFound, message: "no \(route.noun) \(fileName)")
        }
        let answer = BlobAnswer(digest: digest.hex, size: blob.size, isHead: request.method == .head,
                                ifNoneMatch: request.headers[.ifNoneMatch], range: request.headers[values: .range].first,
                                ifRange: request.headers[.ifRange])
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPFields.Element.Name(name) { headers.append(HTTPFields.Element(name: field, value: value)) }
        }
        let status = HTTPResponse.Status(code: answer.status)
        guard let range = answer.body else { return Response(status: status, headers: headers) }
        guard range.count > Self.directReadLimit else {
            guard let bytes = BlobBody.bytes(of: blob, range: range, allocator: context.channel.allocator) else {
                throw HTTPError(.internalServerError, message: "reading \(route.noun) \(fileName) failed")
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
        }
        return Response(status: status, headers: headers, body: BlobBody.streaming(blob, range: range, channel: context.channel))
    }
}
