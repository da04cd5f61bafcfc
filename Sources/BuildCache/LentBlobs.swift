import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `open(2)` for reading, named apart from `LentBlobs.open`.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}

/// Blobs this run brought into the store (from the remote cache or a source) that move into their
/// first output instead of being copied, and are copied back into the store once the outputs are
/// flushed (`BuildCache.finishRun`); and, for every blob, where its bytes are while it is lent.
///
/// Outputs must not share storage with the store (issue 38), so a restored output is a file of
/// its own. A blob fetched this run would then be written twice before the run's one flush —
/// once in the store and once in the output — and on a fresh clone that flush waited on twice
/// the bytes. Moved, the output is written once before the flush; the store's copy is made after
/// it, and needs no flush of its own, since every blob is checked by hash when it is read.
/// A run killed in between leaves the store without the blob: a later run fetches it again.
///
/// A move takes the blob's name out of the store while other jobs of the run may need the same
/// bytes (twenty alternate app icons drawn from one image restore twenty identical files, in
/// jobs running side by side). So the move (the `rename`) and the record of where the bytes went
/// happen under one lock, and every reader opens the bytes under that lock too (`open`): a reader
/// finds them in the store or in the output they moved into, never in neither. Reading the store's
/// path without it raced the move (issue 51: a fresh clone restored a different share of its jobs
/// on every run, since a result pack's small blobs have no copy of their own on the server to fall
/// back to). The record lasts the whole run, whatever passes of lookups it makes (the plan
/// record's restore, then the planned run's after a miss there): `finishRun` empties it. A blob a
/// job of this run stored is kept in the store (`keep`): its uploads read it there.
final class LentBlobs: Sendable {
    private struct State {
        /// Brought this run and not yet placed anywhere.
        var brought: Set<ContentHash> = []
        /// Moved into an output: the output's path and its `stat` right after the move, to be
        /// copied back.
        var lent: [ContentHash: (output: String, stat: FileStat)] = [:]
        /// Stored by a job of this run: never moved out of the store.
        var kept: Set<ContentHash> = []
    }

    /// Where `open` found a blob's bytes.
    struct Opened {
        var descriptor: Int32
        /// The file opened (the store's blob, or the output it moved into).
        var path: String
        /// Whether that file is an output this run moved the blob into (checked when it moved).
        var lent: Bool
    }

    private let state = Mutex(State())

    /// Notes blobs this run put in the store, checked, that no output holds yet.
    func brought<Hashes: Sequence>(_ hashes: Hashes) where Hashes.Element == ContentHash {
        state.withLock { state in
            for hash in hashes where !state.kept.contains(hash) { state.brought.insert(hash) }
        }
    }

    /// Takes `hash` for a move when this run brought it and nothing took it yet; the move itself
    /// is `move`, or `giveBack` when it does not happen.
    func take(_ hash: ContentHash) -> Bool {
        state.withLock { $0.brought.remove(hash) != nil }
    }

    /// Moves the store's `blob` to `target` (a `rename`) and records it there, unless a job of
    /// this run stored the blob meanwhile (then it stays in the store); false when it did not move.
    /// Under the lock, so that no reader looks between the rename and the record.
    func move(_ hash: ContentHash, from blob: String, to target: String) -> Bool {
        state.withLock { state in
            guard !state.kept.contains(hash), rename(blob, target) == 0, let stat = FileStat(path: target) else { return false }
            state.lent[hash] = (target, stat)
            return true
        }
    }

    /// A move taken that did not happen: the blob is still in the store, free for another output.
    func giveBack(_ hash: ContentHash) {
        state.withLock { state in
            if state.lent[hash] == nil, !state.kept.contains(hash) { state.brought.insert(hash) }
        }
    }

    /// Opens the bytes of `hash` for reading wherever they are now: the output it moved into
    /// (when that file is unchanged since), else the store's `blob`; nil when neither has them.
    /// An open descriptor reads the same bytes whatever is renamed afterwards.
    func open(_ hash: ContentHash, store blob: String) -> Opened? {
        state.withLock { state in
            if let (output, stat) = state.lent[hash], FileStat(path: output) == stat {
                let descriptor = openForReading(output)
                if descriptor >= 0 { return Opened(descriptor: descriptor, path: output, lent: true) }
            }
            let descriptor = openForReading(blob)
            return descriptor >= 0 ? Opened(descriptor: descriptor, path: blob, lent: false) : nil
        }
    }

    /// A job of this run stored `hash`: from now on it stays in the store (its uploads, which run
    /// beside the build, read it there). True when it is there now; false when it was moved out
    /// before (the caller stores it again).
    func keep(_ hash: ContentHash, store blob: String) -> Bool {
        state.withLock { state in
            state.kept.insert(hash)
            state.brought.remove(hash)
            return FileStat(path: blob) != nil
        }
    }

    /// Every lent blob with its output; empties the list.
    func takeAll() -> [(hash: ContentHash, output: String)] {
        state.withLock { state in
            defer { state.lent = [:] }
            return state.lent.map { ($0.key, $0.value.output) }.sorted { $0.output < $1.output }
        }
    }
}
