import PublishedBuilds
import Synchronization
import TesseraCore

/// Open blobs by digest, so a download costs no `open`/`stat`: a blob's bytes never change under
/// its name, so a descriptor stays right for as long as it is kept. Absent blobs are not
/// remembered (one may be uploaded at any time). Bounded: past `limit` the table starts afresh;
/// downloads still reading a dropped blob keep it open until they finish.
///
/// Keyed by the digest's hex digits, as bundle requests name it: a known blob is found without
/// decoding the name into a `ContentHash`.
final class OpenBlobCache: Sendable {
    private let blobs: BlobStore
    private let open = Mutex<[String: OpenBlob]>([:])
    private let limit: Int

    init(blobs: BlobStore, limit: Int = 512) {
        self.blobs = blobs
        self.limit = limit
    }

    func blob(_ digest: ContentHash) -> OpenBlob? { blob(hex: digest.hex) }

    /// The blob named by 64 lower-case hex digits, or nil when the name is not a digest or no such blob is stored.
    func blob(hex: String) -> OpenBlob? {
        if let known = open.withLock({ $0[hex] }) { return known }
        guard let digest = ContentHash(hex: hex), digest.hex == hex, let opened = blobs.open(digest) else { return nil }
        return open.withLock { table in
            if let raced = table[hex] { return raced }
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[hex] = opened
            return opened
        }
    }
}
