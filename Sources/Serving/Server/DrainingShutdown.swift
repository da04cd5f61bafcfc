import NIOCore
import NIOHTTP1

/// Graceful shutdown that lets the responses in flight reach the client before the connection closes.
///
/// On SIGTERM the server sends every connection `ChannelShouldQuiesceEvent`. Hummingbird's own
/// handler answers it by closing the channel right after the response's end is *queued*, and a
/// NIO close drops whatever is still queued: a slow client lost the last ~200 KB of a download
/// (what the socket could not take yet). This handler sits next to NIO's HTTP/1 codec, so it
/// sees every request and response the codec handles, and takes the event itself: an idle
/// connection closes at once, a busy one once the write of the end of every response owed has
/// completed. Writes complete in order, so every byte of every body is then in the kernel, which
/// delivers it after the close. `BundleConnectionHandler`, in front of the codec, passes the
/// event on only once its own answers have been written.
final class DrainingShutdown: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests whose head has arrived and whose response's end has not been written out yet.
    private var responsesOwed = 0
    private var isQuiescing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { responsesOwed += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.write(data, promise: written)
        written.futureResult.assumeIsolated().whenComplete { result in
            self.responsesOwed -= 1
            if self.isQuiescing, self.responsesOwed <= 0 { context.close(promise: nil) }
            promise?.completeWith(result)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // Not passed on: Hummingbird's handler would close too early.
        isQuiescing = true
        if responsesOwed <= 0 { context.close(promise: nil) }
    }
}
