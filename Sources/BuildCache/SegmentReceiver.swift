import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Cuts a result pack's segment into its blobs as its bytes arrive, whatever brings them (an HTTP
/// body: `SegmentDownload`; a ByteStream read): each blob the cache needs is hashed and written to
/// a temporary file on the way, and named in the store only when its SHA-256 matches. The segment
/// is never held whole (collecting 8 MiB bodies and copying them out again was a tenth of a fresh
/// clone's CPU).
package final class SegmentReceiver: Sendable {
    /// What the segment came to.
    package struct Outcome: Sendable {
        /// Blobs checked and placed in the store.
        package var placed: [ContentHash]
        /// A blob did not match its hash, or the bytes did not have the segment's length.
        package var damaged: Bool
        /// A blob could not be written to the cache (a full disk).
        package var unwritable: Bool
    }

    private struct State {
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
    /// Guarded by `lock` (not a `Mutex`: the bytes handed in are a pointer the caller owns, which
    /// a `Mutex`'s closure may not take in with the state under strict concurrency checking).
    private let lock = NSLock()
    nonisolated(unsafe) private var state = State()

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    init(blobs: [ResultPack.Blob], keeping needed: Set<ContentHash>, into folder: CacheFolder) {
        self.blobs = blobs
        self.needed = needed
        self.folder = folder
    }

    /// The segment's length: all its blobs' bytes.
    package var size: Int { blobs.reduce(0) { $0 + $1.size } }

    /// The segment's bytes start arriving.
    package func begin() {
        locked { begin(&$0) }
    }

    /// The next bytes; false when they run past the segment's last blob (the segment is then
    /// damaged and the transfer should stop).
    package func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        locked { state -> Bool in
            var start = 0
            while start < bytes.count {
                guard state.blob < blobs.count else {
                    // Past the segment's last blob: the answer is longer than the segment.
                    state.damaged = true
                    state.overrun = true
                    return false
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
            return !state.overrun
        }
    }

    /// The bytes have ended: a segment cut short is damaged.
    package func end() -> Outcome {
        locked { state in
            if state.blob < blobs.count {
                state.damaged = true
                discard(&state)
            }
            return Outcome(placed: state.placed, damaged: state.damaged, unwritable: state.unwritable)
        }
    }

    /// The transfer failed: the blob being written is dropped (those placed stay).
    package func abandon() {
        locked { discard(&$0) }
    }

    /// What was placed so far, and whether it went wrong, without ending the segment.
    package var outcomeSoFar: Outcome {
        locked { Outcome(placed: $0.placed, damaged: $0.damaged, unwritable: $0.unwritable) }
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
