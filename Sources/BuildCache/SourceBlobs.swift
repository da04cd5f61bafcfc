import Synchronization
import TesseraCore

/// The checkout's own input files by content hash, for outputs that are byte copies of a source
/// (a provided variant, copied as it is): such a blob is never uploaded to the remote cache,
/// since every checkout that can hit its entry has the source, and it is restored from the
/// source, copied and checked by hash (issue 28).
final class SourceBlobs: Sendable {
    private let files = Mutex<[ContentHash: String]>([:])

    func use(_ sources: [ContentHash: String]) {
        files.withLock { $0 = sources }
    }

    func contains(_ hash: ContentHash) -> Bool {
        files.withLock { $0[hash] != nil }
    }

    /// Copies the source with this hash into the blob store (never a link: an edit of the source
    /// in place must not change the cache); false when there is none or it no longer matches.
    func place(_ hash: ContentHash, in folder: CacheFolder) -> Bool {
        guard let path = files.withLock({ $0[hash] }) else { return false }
        if FileStat(path: folder.blob(hash)) != nil { return true }
        // A source changed since it was hashed lands under its own hash, a valid blob, and is not used.
        guard let (copied, _) = BlobCopy.copy(path, to: folder.blob, temporaryFolder: folder.temporary) else { return false }
        return copied == hash
    }
}
