import Hummingbird
import NIOCore

/// The request context of `tessera serve`'s routes: Hummingbird's basic one plus the connection,
/// which a streamed body needs for back-pressure (`BlobBody`).
public struct ServeRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
