import NIOCore
import PublishedBuilds

/// Answers `GET`/`HEAD /b/<sha256>.tsb` for a stored blob (and `/o/<sha256>` for a stored object) straight from the connection's bytes,
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

    private let blobs: OpenBlobCache
    private let objects: OpenBlobCache
    private let answers: BundleAnswerWriter
    private var state = BundleConnectionState(holdLimit: holdLimit)
    /// Bytes read and not yet answered or passed on.
    private var pending: ByteBuffer?
    private var reads = ReadCompletion()
    private var passes = ReentrantPasses()

    init(blobs: OpenBlobCache, objects: OpenBlobCache, serverName: String, log: BundleRequestLog) {
        self.blobs = blobs
        self.objects = objects
        answers = BundleAnswerWriter(serverName: serverName, log: log)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reads.readStarted()
        if state.mode == .handedOver {
            reads.passedOn()
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
        if reads.readEnded() { context.fireChannelReadComplete() }
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
        if state.responseQueued(closesConnection: queued.closesConnection) { process(context: context) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let channelEvent = event as? NIOCore.ChannelEvent, case .inputClosed = channelEvent {
            state.inputClosed(holdsBytes: (pending?.readableBytes ?? 0) > 0)
            process(context: context)
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard state.quiesce() else { return }
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
        guard passes.begin() else { return }
        defer { passes.end() }
        repeat {
            processOnce(context: context)
        } while passes.anotherRound()
        // Bytes passed on outside a read (a request held until the response before it was
        // queued): Hummingbird's handlers deliver what they decoded only at a read's end.
        if reads.passedOutsideRead() { context.fireChannelReadComplete() }
    }

    private func processOnce(context: ChannelHandlerContext) {
        var answered = false
        loop: while let readable = pending?.readableBytes, readable > 0 {
            switch state.step(readable: readable, writable: context.channel.isWritable) {
            case .passAll:
                let rest = pending!
                pending = nil
                reads.passedOn()
                context.fireChannelRead(wrapInboundOut(rest))
            case .drop:
                pending = nil
            case .hold:
                break loop
            case .forward(let count):
                pass(count, context: context)
                state.forwarded(count)
            case .scan:
                guard scanned(context: context, answered: &answered) else { break loop }
            }
        }
        // A buffer fully used is let go, so NIO can read the next bytes into it again.
        if pending?.readableBytes == 0 { pending = nil }
        if answered { context.flush() }
    }

    /// Reads the next request's head and answers it, passes it on or hands the connection over;
    /// false when the head is not all here yet, or nothing more is to be read.
    private func scanned(context: ChannelHandlerContext, answered: inout Bool) -> Bool {
        switch pending!.withUnsafeReadableBytes(RequestHeadScan.scan) {
        case .incomplete:
            return false
        case .unframed:
            state.handOver()
        case let .emptyLine(length):
            pending?.moveReaderIndex(forwardBy: length)
        case let .refused(status, _):
            // As nginx answers them, then the connection closes: nothing after is read.
            var answer = context.channel.allocator.buffer(capacity: 128)
            answer.writeString("HTTP/1.1 \(status) \(status == 501 ? "Not Implemented" : "Bad Request")\r\nServer: tessera\r\n"
                               + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            pending = nil
            state.refused()
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(answer))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return false
        case let .other(headLength, bodyLength, keepsAlive):
            passHead(headLength, context: context)
            state.passedRequest(bodyLength: bodyLength, keepsAlive: keepsAlive)
        case let .bundle(request, headLength):
            let store = request.route == .object ? objects : blobs
            guard let blob = store.blob(hex: request.hex), answers.write(request, blob: blob, context: context) else {
                pass(headLength, context: context)
                state.passedRequest(bodyLength: 0, keepsAlive: request.keepsAlive)
                return true
            }
            answered = true
            pending?.moveReaderIndex(forwardBy: headLength)
            state.answeredBundle(keepsAlive: request.keepsAlive)
        }
        return true
    }

    /// Passes a request head on to the codec, without its `Upgrade` lines (ignored, as nginx
    /// ignores them: after one NIO's decoder read nothing more of the connection).
    private func passHead(_ count: Int, context: ChannelHandlerContext) {
        guard let head = pending?.readSlice(length: count) else { return }
        let upgrades = head.withUnsafeReadableBytes(RequestHeadScan.upgradeLines)
        reads.passedOn()
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
        reads.passedOn()
        context.fireChannelRead(wrapInboundOut(slice))
    }
}
