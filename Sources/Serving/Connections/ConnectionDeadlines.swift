import NIOCore

/// First in every connection's pipeline: the cap on connections (`ConnectionRegistry`) and the
/// deadlines a client must keep.
///
/// - **Idle**: between requests, the next one must start within `idleTimeout`.
/// - **Request head**: once its first byte has arrived, a request's head must be complete within
///   `headerTimeout`, however its bytes trickle in (one byte every few seconds kept a connection
///   open for good: 1,100 such clients starved the server, issue 39).
/// - **Body**: while a request's body arrives, no more than `idleTimeout` between two reads.
///
/// A request being answered is never timed out by this handler: a slow reader of a large bundle
/// is held back by the socket's back pressure, not by a clock. A head-timeout answers 408 and
/// closes, as NIO's codec would answer a malformed head; an idle connection is closed silently.
final class ConnectionDeadlines: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Phase {
        /// Between requests: no byte of the next one yet.
        case idle
        /// Some of a request head has arrived; `tail` holds its last bytes read (up to three), to
        /// find the empty line that ends it across reads.
        case head(tail: [UInt8])
        /// The head is complete: the body may follow, and the answer.
        case request
        /// An answer was written: the next byte read starts another request.
        case answered
    }

    private let registry: ConnectionRegistry
    private let idleTimeout: TimeAmount
    private let headerTimeout: TimeAmount
    private var id: Int?
    private var phase = Phase.idle
    /// When the running clock runs out, and whether it is a request head's; nil when none runs.
    private var due: (at: NIODeadline, head: Bool)?
    /// The one scheduled check. Re-arming only moves `due`: the check, when it comes early,
    /// schedules itself again for the new time, so a request costs no timer of its own.
    private var check: Scheduled<Void>?

    init(registry: ConnectionRegistry, idleTimeout: TimeAmount, headerTimeout: TimeAmount) {
        self.registry = registry
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let id = registry.admit(context.channel) else {
            // Every connection is busy with a request: refused at once, the client told why.
            var answer = context.channel.allocator.buffer(capacity: 96)
            answer.writeString("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\nRetry-After: 1\r\n\r\n")
            let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(answer))).whenComplete { _ in closing.value.close(promise: nil) }
            return
        }
        self.id = id
        arm(idleTimeout, context: context, answering: false)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        due = nil
        if let id { registry.leave(id) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard id != nil else { return }
        let bytes = unwrapInboundIn(data)
        switch phase {
        case .idle, .answered:
            registry.setWaiting(id!, true)
            arm(headerTimeout, context: context, answering: true)
            scanHead(bytes, tail: [], context: context)
        case .head(let tail):
            scanHead(bytes, tail: tail, context: context)
        case .request:
            arm(idleTimeout, context: context, answering: false)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .request = phase, let id {
            // The answer has begun: from here the connection waits for its next request (and may
            // be evicted for a newcomer once its answer is out, `ConnectionRegistry`).
            phase = .answered
            registry.setWaiting(id, true)
            arm(idleTimeout, context: context, answering: false)
        }
        context.write(data, promise: promise)
    }

    /// Looks for the empty line ending the head (CR LF CR LF, or LF LF as lenient parsers take it).
    private func scanHead(_ bytes: ByteBuffer, tail: [UInt8], context: ChannelHandlerContext) {
        let ended: Bool = bytes.withUnsafeReadableBytes { buffer in
            var previous = tail
            for byte in buffer where byte == 0x0A || byte == 0x0D || !previous.isEmpty {
                if byte == 0x0A {
                    if previous.last == 0x0A || previous.suffix(2) == [0x0A, 0x0D] { return true }
                    previous = [0x0A]
                } else if byte == 0x0D {
                    previous = previous.last == 0x0A ? [0x0A, 0x0D] : []
                } else {
                    previous = []
                }
            }
            phase = .head(tail: previous)
            return false
        }
        if ended {
            phase = .request
            registry.setWaiting(id!, false)
            arm(idleTimeout, context: context, answering: false)
        }
    }

    /// Closes the connection after `timeout` unless re-armed first. A connection still sending an
    /// answer the client reads slowly (its write buffer over the high-water mark) is given another
    /// period: back pressure, not this clock, paces a download.
    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext, answering headDeadline: Bool) {
        due = (.now() + timeout, headDeadline)
        if check == nil { schedule(at: due!.at, context: context) }
    }

    private func schedule(at time: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: time) {
            let (handler, context) = bound.value
            handler.check = nil
            guard let due = handler.due else { return }
            if due.at > .now() {
                handler.schedule(at: due.at, context: context)
            } else if case .answered = handler.phase, !context.channel.isWritable {
                handler.arm(handler.idleTimeout, context: context, answering: false)
            } else if due.head, case .head = handler.phase {
                handler.due = nil
                var answer = context.channel.allocator.buffer(capacity: 96)
                answer.writeString("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
                let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(handler.wrapOutboundOut(.byteBuffer(answer))).whenComplete { _ in
                    closing.value.close(promise: nil)
                }
            } else {
                handler.due = nil
                context.close(promise: nil)
            }
        }
    }
}
