import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// A body that went past what it can be: the request is stopped there, so a server that sends
/// without end (a broken or hostile cache) costs at most `limit` bytes, never the memory or the
/// disk of the build.
struct BodyTooLong: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "the answer went past \(limit) bytes, more than it can be; stopped" }
}

/// Collects an answer's body, up to `limit` bytes (an entry's documented maximum).
final class BoundedBody: HTTPClientResponseDelegate {
    typealias Response = CacheServerClient.Answer

    private struct State {
        var status = 0
        /// The parts as they came, joined once at the end: a growing array would double its
        /// buffer on the way, holding up to twice the limit of a body that never ends.
        var parts: [ByteBuffer] = []
        var count = 0
    }

    private let limit: Int
    /// False for HEAD, whose `Content-Length` is the length of the body a GET would bring: a
    /// result pack's record is over `errorPageLimit`, and asking whether the server had it failed.
    private let announcedLengthCounts: Bool
    private let state = Mutex(State())

    init(limit: Int, announcedLengthCounts: Bool = true) {
        self.limit = limit
        self.announcedLengthCounts = announcedLengthCounts
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0.status = Int(head.status.code) }
        // A length announced past the limit is refused before its first byte.
        if announcedLengthCounts, let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(BodyTooLong(limit: limit))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard state.count + buffer.readableBytes <= limit else {
                state.parts = []
                return false
            }
            state.parts.append(buffer)
            state.count += buffer.readableBytes
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(BodyTooLong(limit: limit))
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        state.withLock { state in
            var body: [UInt8] = []
            body.reserveCapacity(state.count)
            for part in state.parts { body += part.readableBytesView }
            return CacheServerClient.Answer(status: state.status, body: body)
        }
    }
}
