import NIOCore
import PublishedBuilds

/// Answers `GET`/`HEAD /b/<sha256>.tsb` for a stored blob straight from the connection's bytes,
/// first in the pipeline, before NIO's HTTP/1 codec and Hummingbird; hands every other request to
/// them and takes the connection back once its response is queued.
///
/// Why: a bundle answer through NIO's decoder, its typed head and header table, the response
/// encoder and the handlers between cost about 14 µs of a 64 KiB range's 35 µs of CPU (by
/// `perf`), where nginx spends 23 µs on the whole request. Here `RequestHeadScan` reads the head
/// in place, `BlobAnswer` decides, and the head and a body up to `BundleAnswerWriter.bufferedBodyLimit` leave in one
/// buffer, one `write`; a larger body starts in that buffer and goes on from the file with
/// `sendfile` (a NIO `FileRegion`, which NIO marks as an API to be replaced but is its only way to
/// `sendfile`), so a slow client costs no more memory than the first write.
///
/// Any other request is framed (`RequestHeadScan`: head and `Content-Length` body) and passed on
/// whole; the bytes after it wait until its response's end has been queued (`ResponseEndSignal`),
/// so answers keep the requests' order and the codec sees only whole requests. The codec keeps
/// the connection for good, and answers as it would alone, when: the scan cannot frame a request
/// (a chunked body, an upgrade or CONNECT, anything malformed); the request passed on, or its
/// response, ends the connection; more than `holdLimit` bytes are pipelined behind a request it
/// is answering; the client half-closes while bytes are held. A bundle that is not stored, or
/// whose read fails, goes to the router's route (404, 500).
///
/// Graceful shutdown: `ChannelShouldQuiesceEvent` stops the answers here, and is passed on to
/// `DrainingShutdown` (which closes the connection once the codec's responses are out) when this
/// handler's own answers have all been written.
final class BundleConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The most bytes held behind a request the codec is answering.
    static let holdLimit = 64 << 10

    private enum Mode {
        /// At a request boundary: bundle requests are answered here.
        case answering
        /// A request passed on whose body is still arriving; `answered` once its response is
        /// queued; `keepsAlive` while neither the request nor its response ends the connection.
        case forwardingBody(remaining: Int, answered: Bool, keepsAlive: Bool)
        /// A whole request passed on; later bytes wait for its response.
        case awaitingResponse(keepsAlive: Bool)
        /// The codec reads everything from here on.
        case handedOver
        /// A `Connection: close` request was answered: nothing more is read.
        case closing
    }

    private let blobs: OpenBlobCache
    private let answers: BundleAnswerWriter
    private var mode = Mode.answering
    /// Bytes read and not yet answered or passed on.
    private var pending: ByteBuffer?
    private var isQuiescing = false
    private var passedSinceReadComplete = false
    /// Whether a read is under way, whose end (`channelReadComplete`) is still to come.
    private var readCompletePending = false
    private var isProcessing = false
    private var wantsAnotherPass = false

    init(blobs: OpenBlobCache, serverName: String, log: BundleRequestLog) {
        self.blobs = blobs
        answers = BundleAnswerWriter(serverName: serverName, log: log)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        readCompletePending = true
        if case .handedOver = mode {
            passedSinceReadComplete = true
            context.fireChannelRead(data)
            return
        }
        var bytes = unwrapInboundIn(data)
        if pending == nil {
            pending = bytes
        } else {
            pending!.writeBuffer(&bytes)
        }
        process(context: context)
    }

    /// Passed on only after bytes were: the handlers behind (the codec, Hummingbird's) have
    /// nothing to do for a read that brought only bundle requests, and walking them cost 1.5%
    /// of a 64 KiB range's CPU time.
    func channelReadComplete(context: ChannelHandlerContext) {
        readCompletePending = false
        guard passedSinceReadComplete else { return }
        passedSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        if context.channel.isWritable { process(context: context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending = nil
        context.fireChannelInactive()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let queued = event as? ResponseEndSignal.Queued else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed(())
        switch mode {
        case let .awaitingResponse(keepsAlive):
            // A connection the request or its response ends is the codec's to finish, as it
            // would without this handler (it closes, or refuses what follows).
            mode = keepsAlive && !queued.closesConnection ? .answering : .handedOver
            process(context: context)
        case let .forwardingBody(remaining, _, keepsAlive):
            mode = .forwardingBody(remaining: remaining, answered: true, keepsAlive: keepsAlive && !queued.closesConnection)
        case .answering, .handedOver, .closing:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let channelEvent = event as? NIOCore.ChannelEvent, case .inputClosed = channelEvent {
            // The client sent all it will: what is held goes to the codec before the end does,
            // or the codec (which has seen the end) would drop it.
            switch mode {
            case .forwardingBody, .awaitingResponse:
                mode = .handedOver
            case .answering where (pending?.readableBytes ?? 0) > 0:
                mode = .handedOver
            case .answering, .handedOver, .closing:
                break
            }
            process(context: context)
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard !isQuiescing else { return }
        isQuiescing = true
        // Nothing more is answered here; what the client still sends is dropped with the connection.
        if case .answering = mode { mode = .closing }
        // Writes complete in order: once this empty one has, every answer written here is in the
        // kernel, and `DrainingShutdown` may close the connection when the codec's are too.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer())), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    /// Answers, passes on or holds what `pending` holds, as far as the mode allows. Writes and
    /// reads passed on can call back in (a write that changes the channel's writability, a
    /// response queued at once); such a call only asks the running pass for another round.
    private func process(context: ChannelHandlerContext) {
        guard !isProcessing else {
            wantsAnotherPass = true
            return
        }
        isProcessing = true
        defer { isProcessing = false }
        repeat {
            wantsAnotherPass = false
            processOnce(context: context)
        } while wantsAnotherPass
        // Bytes passed on outside a read (a request held until the response before it was
        // queued): Hummingbird's handlers deliver what they decoded only at a read's end.
        if passedSinceReadComplete, !readCompletePending {
            passedSinceReadComplete = false
            context.fireChannelReadComplete()
        }
    }

    private func processOnce(context: ChannelHandlerContext) {
        var answered = false
        loop: while let readable = pending?.readableBytes, readable > 0 {
            switch mode {
            case .handedOver:
                let rest = pending!
                pending = nil
                passedSinceReadComplete = true
                context.fireChannelRead(wrapInboundOut(rest))
            case .closing:
                pending = nil
            case .awaitingResponse:
                guard readable > Self.holdLimit else { break loop }
                mode = .handedOver
            case let .forwardingBody(remaining, responseQueued, keepsAlive):
                let count = min(remaining, readable)
                pass(count, context: context)
                if count < remaining {
                    mode = .forwardingBody(remaining: remaining - count, answered: responseQueued, keepsAlive: keepsAlive)
                } else if responseQueued {
                    mode = keepsAlive ? .answering : .handedOver
                } else {
                    mode = .awaitingResponse(keepsAlive: keepsAlive)
                }
            case .answering:
                // Quiescing: what is left is dropped with the connection. Unwritable: the client
                // is not reading; answering more would only queue them in memory.
                guard !isQuiescing, context.channel.isWritable else { break loop }
                switch pending!.withUnsafeReadableBytes(RequestHeadScan.scan) {
                case .incomplete:
                    break loop
                case .unframed:
                    mode = .handedOver
                case let .emptyLine(length):
                    pending?.moveReaderIndex(forwardBy: length)
                case let .refused(status, _):
                    // As nginx answers them, then the connection closes: nothing after is read.
                    var answer = context.channel.allocator.buffer(capacity: 128)
                    answer.writeString("HTTP/1.1 \(status) \(status == 501 ? "Not Implemented" : "Bad Request")\r\nServer: tessera\r\n"
                                       + "Content-Length: 0\r\nConnection: close\r\n\r\n")
                    pending = nil
                    mode = .closing
                    context.writeAndFlush(wrapOutboundOut(.byteBuffer(answer))).assumeIsolated().whenComplete { _ in
                        context.close(promise: nil)
                    }
                    break loop
                case let .other(headLength, bodyLength, keepsAlive):
                    passHead(headLength, context: context)
                    mode = bodyLength > 0 ? .forwardingBody(remaining: bodyLength, answered: false, keepsAlive: keepsAlive)
                        : .awaitingResponse(keepsAlive: keepsAlive)
                case let .bundle(request, headLength):
                    guard let blob = blobs.blob(hex: request.hex), answers.write(request, blob: blob, context: context) else {
                        pass(headLength, context: context)
                        mode = .awaitingResponse(keepsAlive: request.keepsAlive)
                        continue loop
                    }
                    answered = true
                    pending?.moveReaderIndex(forwardBy: headLength)
                    if !request.keepsAlive { mode = .closing }
                }
            }
        }
        // A buffer fully used is let go, so NIO can read the next bytes into it again.
        if pending?.readableBytes == 0 { pending = nil }
        if answered { context.flush() }
    }

    /// Passes a request head on to the codec, without its `Upgrade` lines (ignored, as nginx
    /// ignores them: after one NIO's decoder read nothing more of the connection).
    private func passHead(_ count: Int, context: ChannelHandlerContext) {
        guard let head = pending?.readSlice(length: count) else { return }
        let upgrades = head.withUnsafeReadableBytes(RequestHeadScan.upgradeLines)
        passedSinceReadComplete = true
        guard !upgrades.isEmpty else {
            context.fireChannelRead(wrapInboundOut(head))
            return
        }
        var kept = context.channel.allocator.buffer(capacity: count)
        var from = 0
        for range in upgrades {
            kept.writeImmutableBuffer(head.getSlice(at: head.readerIndex + from, length: range.lowerBound - from)!)
            from = range.upperBound
        }
        kept.writeImmutableBuffer(head.getSlice(at: head.readerIndex + from, length: count - from)!)
        context.fireChannelRead(wrapInboundOut(kept))
    }

    /// Passes the next `count` pending bytes on to the codec.
    private func pass(_ count: Int, context: ChannelHandlerContext) {
        guard let slice = pending?.readSlice(length: count) else { return }
        passedSinceReadComplete = true
        context.fireChannelRead(wrapInboundOut(slice))
    }
}
