import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The HTTP/1 connection of `tessera serve`: Hummingbird's `HTTP1Channel` pipeline with handlers
/// where Hummingbird's configuration cannot put them (its `additionalChannelHandlers` come after
/// the conversion to HTTP types). In front of NIO's HTTP/1 codec, `BundleConnectionHandler`
/// answers bundle requests from the raw bytes and passes the rest on; next to the codec,
/// `DrainingShutdown` (graceful SIGTERM) and `ResponseEndSignal` (which hands the connection
/// back to the bundle handler after each response). First of all, NIO's `BackPressureHandler`
/// stops reading requests while the socket's write buffer is over its high-water mark (answers
/// written on the event loop do not wait for the socket, so a client pipelining requests without
/// reading would otherwise queue answers without end). Before that, `ConnectionDeadlines` holds
/// the connection to the server's cap and to its idle and request-head clocks.
struct ServeHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let blobs: OpenBlobCache
    /// The objects answered before the router, as bundles are.
    let objects: OpenBlobCache
    let serverName: String
    /// The request log of the bundles answered before the router.
    let requestLog: BundleRequestLog
    /// The cap on connections and the clocks a client must keep (`ConnectionDeadlines`).
    let connections: ConnectionRegistry
    let idleTimeout: TimeAmount
    let headerTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Hummingbird's defaults (`HTTP1Channel.Configuration`).
            let decoder = HTTP1Channel.Configuration.DecoderConfiguration()
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = decoder.maxHeaderFieldSize
            limits.maxHeaderListSize = decoder.maxHeaderListSize
            limits.maxHeaderFieldCount = decoder.maxHeaderFieldCount
            // NIO's default high-water mark (64 KiB) is under a 64 KiB range's answer: each one made
            // the channel unwritable and writable again, two passes through every handler and a
            // re-arm of reading per request. Above the largest body read into memory
            // (`BlobResponder.directReadLimit`), small answers never flip it; a large file region
            // still goes over it at once, so back pressure holds where it matters.
            try channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark,
                                               value: .init(low: BlobResponder.directReadLimit,
                                                            high: 2 * BlobResponder.directReadLimit))
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionDeadlines(registry: connections, idleTimeout: idleTimeout, headerTimeout: headerTimeout))
            try pipeline.addHandler(BackPressureHandler())
            try pipeline.addHandler(BundleConnectionHandler(blobs: blobs, objects: objects, serverName: serverName, log: requestLog))
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                     withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
                                                     withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(DrainingShutdown())
            try pipeline.addHandler(ResponseEndSignal())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel,
                                       configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
