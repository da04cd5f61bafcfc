import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization
import TesseraCore

/// Receives a blob's body straight into a file, hashing it on the way, so a large blob (a bundle)
/// is never held whole in memory and its bytes are copied once, from the socket to the file.
///
/// Body parts arrive on the connection's event loop; writing them there blocks it for a page-cache
/// write, which costs less than handing every part to another thread.
final class BlobDownload: HTTPClientResponseDelegate {
    /// The status, and what a 200's body hashed to and how long it was (nil for other statuses,
    /// whose bodies are dropped); `written` is false when the file could not be written.
    struct Outcome: Sendable {
        var status: Int
        var hash: ContentHash?
        var size: Int
        var written: Bool
    }

    private struct State {
        var status = 0
        var hasher = ContentHasher()
        var size = 0
        var written = true
    }

    private let descriptor: Int32
    private let limit: Int
    private let state = Mutex(State())

    /// Writes into `descriptor`, which the caller opened and closes; a body past `limit` bytes
    /// (the blob's size) stops the request.
    init(into descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0.status = Int(head.status.code) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard state.size + buffer.readableBytes <= limit else { return false }
            guard state.status == 200, state.written else { return true }
            buffer.withUnsafeReadableBytes { bytes in
                state.hasher.update(bytes)
                state.size += bytes.count
                state.written = BlobCopy.writeAll(bytes, to: descriptor)
            }
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(BodyTooLong(limit: limit))
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        state.withLock { state in
            Outcome(status: state.status, hash: state.status == 200 ? state.hasher.finalize() : nil,
                    size: state.size, written: state.written)
        }
    }
}
