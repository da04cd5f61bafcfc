import NIOCore
import NIOHTTP1

/// Tells `BundleConnectionHandler`, ahead of it in the pipeline, each time the end of a response
/// from the router has been queued, so that it answers the requests pipelined behind that one.
/// Sits next to NIO's HTTP/1 codec, where responses are still typed; the signal is an outbound
/// user event, which passes the codec's handlers on its way to the head.
final class ResponseEndSignal: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The event: a response's end is queued behind every byte of it; `closesConnection` when
    /// the response said the connection ends with it (`Connection: close`, HTTP/1.0 without
    /// keep-alive), so nothing behind it is to be answered.
    struct Queued: Sendable {
        var closesConnection: Bool
    }

    private var closesConnection = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case let .head(head) = part { closesConnection = !head.isKeepAlive }
        context.write(data, promise: promise)
        if case .end = part { context.triggerUserOutboundEvent(Queued(closesConnection: closesConnection), promise: nil) }
    }
}
