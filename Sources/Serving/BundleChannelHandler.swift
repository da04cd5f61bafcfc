import Logging
import NIOCore
import NIOHTTP1

/// Answers `GET`/`HEAD /b/<sha256>.tsb` for a stored blob on the connection's event loop, before
/// the request reaches Hummingbird. A body up to `BlobResponder.directReadLimit` is read with one
/// `pread` and leaves with its head in one `writev`; a larger one goes out from the file with
/// `sendfile` (a NIO `FileRegion`, which NIO marks as an API to be replaced but is its only way
/// to `sendfile`).
///
/// Why: through Hummingbird a bundle request hopped from the event loop to a task and back and
/// went through the router and HTTP/1 encoding of its typed head. Here the answer (`BlobAnswer`,
/// the same decision as the route's) is written at once. For a large body the kernel copies the
/// bytes from the page cache to the socket; the channel keeps the region queued and sends it as
/// the socket drains, so a slow client costs no memory. For a small one (a 64 KiB suffix range)
/// `sendfile` cost more than the copy it saves: the head went out as a TCP segment of its own
/// (`write`, then `sendfile`), and on loopback every segment also costs the receiver's processing
/// (by `perf`; docs/serving.md). nginx, with its default `sendfile off`, reads and `writev`s too.
///
/// Sits between NIO's HTTP/1 codec and Hummingbird's (a `FileRegion` cannot pass through the
/// latter). Answers keep the requests' order: while Hummingbird still owes the response of an
/// earlier request on the connection (pipelining), bundle requests are passed on to its route
/// too. A blob that is not stored, and every other request, go on to Hummingbird.
final class BundleChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let blobs: OpenBlobCache
    private let serverName: String
    private let logger: Logger
    /// Requests passed on whose response's end Hummingbird has not written yet.
    private var owedByHummingbird = 0
    /// Whether the rest of the request being read (body, end) belongs to a request answered here.
    private var dropsRequestParts = false

    init(blobs: OpenBlobCache, serverName: String, logger: Logger) {
        self.blobs = blobs
        self.serverName = serverName
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            if owedByHummingbird == 0, answer(head, context: context) {
                dropsRequestParts = true
                return
            }
            dropsRequestParts = false
            owedByHummingbird += 1
        case .body:
            if dropsRequestParts { return }
        case .end:
            if dropsRequestParts {
                dropsRequestParts = false
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A parse error's answer has no request head behind it, hence the floor.
        if case .end = unwrapOutboundIn(data) { owedByHummingbird = max(0, owedByHummingbird - 1) }
        context.write(data, promise: promise)
    }

    /// Writes the whole answer when `head` asks for a stored bundle; false when it does not.
    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        guard head.method == .GET || head.method == .HEAD else { return false }
        let path = head.uri.prefix { $0 != "?" }
        guard path.hasPrefix("/b/"), let digest = BlobResponder.digest(inFileName: path.dropFirst(3)),
              let blob = blobs.blob(digest) else { return false }
        let start = ContinuousClock.now
        func field(_ name: String) -> String? {
            let values = head.headers[name]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        let answer = BlobAnswer(digest: digest.hex, size: blob.size, isHead: head.method == .HEAD,
                                ifNoneMatch: field("if-none-match"), range: field("range"), ifRange: field("if-range"))
        var bytes: ByteBuffer?
        if let range = answer.body, range.count <= BlobResponder.directReadLimit {
            // A failed read (a disk error) is left to the route, which answers 500 before any head.
            guard let read = BlobBody.bytes(of: blob, range: range, allocator: context.channel.allocator) else { return false }
            bytes = read
        }
        defer {
            logger.request(method: head.method.rawValue, path: path, status: answer.status, bytes: answer.body?.count ?? 0,
                           since: start)
        }
        var headers = HTTPHeaders(answer.headers)
        headers.add(name: "date", value: HTTPDate.now())
        headers.add(name: "server", value: serverName)
        let keepAlive = head.isKeepAlive
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if head.version == .http1_0 {
            headers.add(name: "connection", value: "keep-alive")
        }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)
        if let bytes {
            // Queued behind the head: one flush writes both with one `writev`.
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        }
        // What is left: the end, or a large body's region and then the end.
        guard bytes == nil, let range = answer.body else {
            guard !keepAlive else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return true
            }
            // Closed once written: a close drops writes still queued.
            let sent = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: sent)
            sent.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return true
        }
        // A handle of its own per response: NIO marks a handle busy while it sends from it, and
        // one handle shared by connections on other event loops fails their writes (EBUSY).
        // It borrows `blob`'s descriptor, handed back (not closed) once the body has gone out.
        let file = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: blob.descriptor)
        let region = FileRegion(fileHandle: file, readerIndex: range.lowerBound, endIndex: range.upperBound + 1)
        context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: nil)
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: sent)
        sent.futureResult.assumeIsolated().whenComplete { _ in
            withExtendedLifetime(blob) { _ = try? file.takeDescriptorOwnership() }
            if !keepAlive { context.close(promise: nil) }
        }
        return true
    }
}
