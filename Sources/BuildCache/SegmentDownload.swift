import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Receives a result pack's segment and cuts it into its blobs as the bytes arrive: each blob the
/// cache needs is hashed and written to a temporary file on the way, and named in the store only
/// when its SHA-256 matches. The segment is never held whole (collecting 8 MiB bodies and copying
/// them out again was a tenth of a fresh clone's CPU).
final class SegmentDownload: HTTPClientResponseDelegate {
    struct Outcome: Sendable {
        var status: Int
        /// Blobs checked and placed in the store.
        var placed: [ContentHash]
        /// A blob did not match its hash, or the body did not have the segment's length.
        var damaged: Bool
        /// A blob could not be written to the cache (a full disk).
        var unwritable: Bool
    }

    private struct State {
        var status = 0
        var blob = 0
        var offset = 0
        var hasher = ContentHasher()
        var file: (path: String, descriptor: Int32)?
        var placed: [ContentHash] = []
        var damaged = false
        var unwritable = false
        /// Bytes came past the segment's last blob.
        var overrun = false
    }

    private let blobs: [ResultPack.Blob]
    private let needed: Set<ContentHash>
    private let folder: CacheFolder
    private let state = Mutex(State())

    init(blobs: [ResultPack.Blob], keeping needed: Set<ContentHash>, into folder: CacheFolder) {
        self.blobs = blobs
        self.needed = needed
        self.folder = folder
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { state in
            state.status = Int(head.status.code)
            if state.status == 200 { begin(&state) }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let tooLong = state.withLock { state -> Bool in
            guard state.status == 200 else { return false }
            buffer.withUnsafeReadableBytes { bytes in
                var start = 0
                while start < bytes.count {
                    guard state.blob < blobs.count else {
                        // Past the segment's last blob: the answer is longer than the segment.
                        state.damaged = true
                        state.overrun = true
                        return
                    }
                    let count = min(bytes.count - start, blobs[state.blob].size - state.offset)
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
                    if let file = state.file {
                        state.hasher.update(piece)
                        if !BlobCopy.writeAll(piece, to: file.descriptor) {
                            state.unwritable = true
                            discard(&state)
                        }
                    }
                    state.offset += count
                    start += count
                    if state.offset == blobs[state.blob].size { finish(&state) }
                }
            }
            return state.overrun
        }
        // A segment is exactly its blobs' bytes: more stops the request.
        return tooLong ? task.eventLoop.makeFailedFuture(BodyTooLong(limit: blobs.reduce(0) { $0 + $1.size }))
            : task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        state.withLock { state in
            if state.status == 200, state.blob < blobs.count {
                state.damaged = true
                discard(&state)
            }
            return Outcome(status: state.status, placed: state.placed, damaged: state.damaged, unwritable: state.unwritable)
        }
    }

    func didReceiveError(task: HTTPClient.Task<Outcome>, _ error: any Error) {
        state.withLock { discard(&$0) }
    }

    /// Opens the current blob's temporary file when the cache needs the blob; skips empty blobs.
    private func begin(_ state: inout State) {
        while state.blob < blobs.count {
            let blob = blobs[state.blob]
            state.offset = 0
            state.hasher = ContentHasher()
            if needed.contains(blob.sha256), !state.unwritable {
                state.file = BlobCopy.makeTemporary(in: folder.temporary)
                if state.file == nil { state.unwritable = true }
            }
            guard blob.size == 0 else { return }
            finish(&state, advancing: false)
            state.blob += 1
        }
    }

    /// The current blob is complete: named in the store if it matches its hash; then the next.
    private func finish(_ state: inout State, advancing: Bool = true) {
        let blob = blobs[state.blob]
        if let file = state.file {
            close(file.descriptor)
            state.file = nil
            if state.hasher.finalize() == blob.sha256 {
                if BlobCopy.finish(file.path, ok: true, at: folder.blob(blob.sha256)) { state.placed.append(blob.sha256) }
            } else {
                unlink(file.path)
                state.damaged = true
            }
        }
        guard advancing else { return }
        state.blob += 1
        begin(&state)
    }

    private func discard(_ state: inout State) {
        guard let file = state.file else { return }
        close(file.descriptor)
        unlink(file.path)
        state.file = nil
    }
}
