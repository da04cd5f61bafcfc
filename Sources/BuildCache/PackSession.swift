import Synchronization
import TesseraCore

/// What one run knows about result packs (`ResultPack`): the run's job keys, the entries a pack
/// brought, the blobs already checked this run, and every entry the run hit or stored.
final class PackSession: Sendable {
    let keys = Mutex<[ContentHash]>([])
    let entries = Mutex<[ContentHash: ActionEntry]>([:])
    let checkedBlobs = Mutex<Set<ContentHash>>([])
    let results = Mutex<[ContentHash: ActionEntry]>([:])
    /// Whether every lookup will be local: the local cache has every entry, or a pack brought
    /// every entry it lacked.
    let coversRun = Mutex(false)
    /// The keys the remote cache lists (`RemoteKeyIndex`); nil when not read, and then every
    /// lookup asks the server.
    let remoteKeys = Mutex<RemoteKeyIndex?>(nil)
    /// Entries this run stored that wait for its end: its pack holds them, or they go up one by one.
    let heldBack = Mutex<[ContentHash: ActionEntry]>([:])
    /// Blobs too large for a segment that this run uploaded while it ran.
    let uploadedBlobs = Mutex<Set<ContentHash>>([])

    /// Whether a lookup of `key` should ask the server for the job's own entry (keys the index
    /// places in a pack were taken from it before the lookups, or the pack could not be had).
    func remoteMayHold(_ key: ContentHash) -> Bool {
        remoteKeys.withLock { index in index.map { $0.location(of: key) == .entry } ?? true }
    }

    /// Forgets an earlier run of the same cache and notes this one's keys.
    func begin(_ keys: [ContentHash]) {
        self.keys.withLock { $0 = keys }
        entries.withLock { $0 = [:] }
        checkedBlobs.withLock { $0 = [] }
        results.withLock { $0 = [:] }
        remoteKeys.withLock { $0 = nil }
        heldBack.withLock { $0 = [:] }
        uploadedBlobs.withLock { $0 = [] }
    }

    func record(_ key: ContentHash, _ entry: ActionEntry) {
        results.withLock { $0[key] = entry.withoutContents }
    }
}
