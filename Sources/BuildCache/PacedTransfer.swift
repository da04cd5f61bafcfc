import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Holds a cache server's answer to a pace: `timeout`, plus a second for every MiB received so
/// far. A server that sends a byte every few seconds stays under the read timeout between bytes,
/// and used to hold each request for its whole deadline (a minute); now it is cut off about
/// `timeout` after the request began, while a large download that keeps moving earns its time.
/// Wraps any response delegate, forwarding everything to it.
final class PacedTransfer<Inner: HTTPClientResponseDelegate>: HTTPClientResponseDelegate {
    typealias Response = Inner.Response

    private let inner: Inner
    private let started = NIODeadline.now()
    private let timeout: TimeAmount
    private let received = Mutex(0)

    init(_ inner: Inner, timeout: TimeAmount) {
        self.inner = inner
        self.timeout = timeout
    }

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        inner.didSendRequestHead(task: task, head)
    }

    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        inner.didSendRequestPart(task: task, part)
    }

    func didSendRequest(task: HTTPClient.Task<Response>) {
        inner.didSendRequest(task: task)
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        inner.didReceiveHead(task: task, head)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let total = received.withLock { count in
            count += buffer.readableBytes
            return count
        }
        let allowed = timeout + .milliseconds(Int64(total >> 10))
        guard NIODeadline.now() - started <= allowed else {
            return task.eventLoop.makeFailedFuture(TooSlow(received: total, seconds: Double((NIODeadline.now() - started).nanoseconds) / 1e9))
        }
        return inner.didReceiveBodyPart(task: task, buffer)
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        inner.didReceiveError(task: task, error)
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try inner.didFinishRequest(task: task)
    }
}

/// An answer that came slower than a pace any working cache server keeps.
struct TooSlow: Error, CustomStringConvertible {
    let received: Int
    let seconds: Double
    var description: String {
        "the answer came too slowly (\(received) bytes in \(String(format: "%.0f", seconds)) s; at least a MiB a second after the first 10 s is expected); stopped"
    }
}
