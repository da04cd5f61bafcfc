import NIOCore
import NIOHTTP1

/// Tells `BundleConnectionHandler`, ahead of it in the pipeline, each time the end of a response
/// from the router has been queued, so that it answers the requests pipelined behind that one.
/// Sits next to NIO's HTTP/1 codec, where responses are still typed; the signal is an outbound
/// user event, which passes the codec's handlers on its way to the head.
final class ResponseEndSignal: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The event: a response's end is queued behind every byte of it.
    struct Queued: Sendable {}

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        if case .end = unwrapOutboundIn(data) { context.triggerUserOutboundEvent(Queued(), promise: nil) }
    }
}
