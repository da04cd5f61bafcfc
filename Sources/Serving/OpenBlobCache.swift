import PublishedBuilds
import Synchronization
import TesseraCore

/// Open blobs by digest, so a download costs no `open`/`stat`: a blob's bytes never change under
/// its name, so a descriptor stays right for as long as it is kept. Absent blobs are not
/// remembered (one may be uploaded at any time). Bounded: past `limit` the table starts afresh;
/// downloads still reading a dropped blob keep it open until they finish.
final class OpenBlobCache: Sendable {
    private let blobs: BlobStore
    private let open = Mutex<[ContentHash: OpenBlob]>([:])
    private let limit: Int

    init(blobs: BlobStore, limit: Int = 512) {
        self.blobs = blobs
        self.limit = limit
    }

    func blob(_ digest: ContentHash) -> OpenBlob? {
        if let known = open.withLock({ $0[digest] }) { return known }
        guard let opened = blobs.open(digest) else { return nil }
        return open.withLock { table in
            if let raced = table[digest] { return raced }
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[digest] = opened
            return opened
        }
    }
}
