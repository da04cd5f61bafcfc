import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Blobs this run brought into the store (from the remote cache or a source) that move into their
/// first output instead of being copied, and are copied back into the store once the outputs are
/// flushed (`BuildCache.finishRun`).
///
/// Outputs must not share storage with the store (issue 38), so a restored output is a file of
/// its own. A blob fetched this run would then be written twice before the run's one flush —
/// once in the store and once in the output — and on a fresh clone that flush waited on twice
/// the bytes. Moved, the output is written once before the flush; the store's copy is made after
/// it, and needs no flush of its own, since every blob is checked by hash when it is read.
/// A run killed in between leaves the store without the blob: a later run fetches it again.
final class LentBlobs: Sendable {
    private struct State {
        /// Brought this run and not yet placed anywhere.
        var brought: Set<ContentHash> = []
        /// Moved into an output (the output's path), to be copied back.
        var lent: [ContentHash: String] = [:]
    }

    private let state = Mutex(State())

    /// Forgets an earlier run.
    func begin() {
        state.withLock { $0 = State() }
    }

    /// Notes blobs this run put in the store that no output holds yet.
    func brought<Hashes: Sequence>(_ hashes: Hashes) where Hashes.Element == ContentHash {
        state.withLock { $0.brought.formUnion(hashes) }
    }

    /// Takes `hash` for a move into `target` when this run brought it and nothing took it yet.
    func take(_ hash: ContentHash, for target: String) -> Bool {
        state.withLock { state in
            guard state.brought.remove(hash) != nil else { return false }
            state.lent[hash] = target
            return true
        }
    }

    /// A move that did not happen (the rename failed or the placement was abandoned).
    func giveBack(_ hash: ContentHash) {
        state.withLock { _ = $0.lent.removeValue(forKey: hash) }
    }

    /// The output a lent blob now lives in, to copy a second output with the same bytes from.
    func output(holding hash: ContentHash) -> String? {
        state.withLock { $0.lent[hash] }
    }

    /// Every lent blob with its output; empties the list.
    func takeAll() -> [(hash: ContentHash, output: String)] {
        state.withLock { state in
            defer { state.lent = [:] }
            return state.lent.map { ($0.key, $0.value) }.sorted { $0.output < $1.output }
        }
    }
}
