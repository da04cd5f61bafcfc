import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization
import TesseraCore

/// Receives a result pack's segment as an HTTP answer: a 200's body goes to a `SegmentReceiver`,
/// which cuts it into its blobs as the bytes arrive.
final class SegmentDownload: HTTPClientResponseDelegate {
    struct Outcome: Sendable {
        var status: Int
        var segment: SegmentReceiver.Outcome
    }

    private let receiver: SegmentReceiver
    private let status = Mutex(0)

    init(_ receiver: SegmentReceiver) {
        self.receiver = receiver
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let code = Int(head.status.code)
        status.withLock { $0 = code }
        if code == 200 { receiver.begin() }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard status.withLock({ $0 }) == 200 else { return task.eventLoop.makeSucceededVoidFuture() }
        let fits = buffer.withUnsafeReadableBytes { receiver.receive($0) }
        // A segment is exactly its blobs' bytes: more stops the request.
        return fits ? task.eventLoop.makeSucceededVoidFuture()
            : task.eventLoop.makeFailedFuture(BodyTooLong(limit: receiver.size))
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        let code = status.withLock { $0 }
        return Outcome(status: code, segment: code == 200 ? receiver.end() : receiver.outcomeSoFar)
    }

    func didReceiveError(task: HTTPClient.Task<Outcome>, _ error: any Error) {
        receiver.abandon()
    }
}
