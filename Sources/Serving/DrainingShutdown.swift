import NIOCore
import NIOHTTPTypes

/// Graceful shutdown that lets the response in flight reach the client before the connection closes.
///
/// On SIGTERM the server sends every connection `ChannelShouldQuiesceEvent`. Hummingbird's own
/// handler answers it by closing the channel right after the response's end is *queued*, and a
/// NIO close drops whatever is still queued: a slow client lost the last ~200 KB of a download
/// (what the socket could not take yet). This handler sits before Hummingbird's in the pipeline
/// and takes the event itself: an idle connection closes at once, a busy one after the write of
/// its last response's end has completed, which (writes complete in order) means every byte of
/// the body is in the kernel, which delivers it after the close.
final class DrainingShutdown: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head has arrived and whose response has not ended yet.
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
        responsesOwed -= 1
        guard isQuiescing, responsesOwed <= 0 else {
            context.write(data, promise: promise)
            return
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(data, promise: written)
        written.futureResult.assumeIsolated().whenComplete { result in
            context.close(promise: nil)
            switch result {
            case .success: promise?.succeed()
            case let .failure(error): promise?.fail(error)
            }
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
