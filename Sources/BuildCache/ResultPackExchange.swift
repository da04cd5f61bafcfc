import Foundation
import JobEngine
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

extension BuildCache {
    /// Segments downloaded or uploaded at once (each is held in memory while it is checked).
    static let segmentConcurrency = 4

    /// Local result packs kept beside the one just saved; older ones are removed (a runner whose
    /// cache lives on would otherwise keep one per commit).
    static let localPackLimit = 2

    /// Earlier builds' packs a run reads at most for the entries its own pack lacks.
    static let packsTaken = 4

    /// Before the lookups: when entries are missing locally, takes them from a result pack — one
    /// this cache kept (this very set of jobs, else the newest), else the remote cache's pack of
    /// this set of jobs — and downloads the segments holding blobs this cache lacks, and the large
    /// blobs it lacks, so the lookups that follow are local.
    ///
    /// Entries taken from a pack are not written one by one: the remote pack's record is kept as
    /// one file under `packs/`, which later runs read instead (a run after a clone that changed one
    /// asset finds all the others there, and asks the server only for what changed).
    public func prepare(_ keys: [ContentHash]) async {
        pack.begin(keys)
        // `lentBlobs` is not reset here: a run may look its jobs up twice (the plan record's
        // restore, then, after a miss there, the planned run's lookups), and the second pass must
        // find the blobs the first moved into outputs (forgotten, every job sharing their bytes
        // missed: issue 51). The run's end copies them back and empties the list.
        // Without a server or a kept pack there is nothing to take entries from: a plain local run
        // does not stat every entry twice.
        let kept = localPacks()
        guard remote != nil || !kept.isEmpty else { return }
        let missing = Set(keys.filter { FileStat(path: folder.action($0)) == nil })
        pack.coversRun.withLock { $0 = missing.isEmpty }
        guard !missing.isEmpty else { return }
        let packKey = ResultPack.key(for: keys)
        var taken = TakenEntries(missing: missing)
        if let local = localPack(packKey, newest: kept.first?.path) { taken.take(local, fromServer: false) }
        if !taken.isComplete, let remote { _ = takeRemotePack(packKey, from: remote, into: &taken) }
        if !taken.isComplete, let remote { takeEarlierPacks(than: packKey, from: remote, into: &taken) }
        pack.entries.withLock { $0 = taken.entries }
        pack.coversRun.withLock { $0 = taken.isComplete }
        guard let remote, !taken.packs.isEmpty else { return }
        await bringBlobs(of: taken, from: remote)
    }

    /// Takes the missing entries of the server's pack under `key`, and keeps the pack locally;
    /// false when the server has none (or a damaged one, reported).
    private func takeRemotePack(_ key: ContentHash, from remote: RemoteCache, into taken: inout TakenEntries) -> Bool {
        guard let bytes = remote.action(key) else { return false }
        guard let found = ResultPack.parse(bytes) else {
            remote.reportDamaged("ac/\(key.hex)")
            return false
        }
        taken.take(found, fromServer: true)
        keepLocally(bytes, as: key)
        return true
    }

    /// The packs of earlier builds that hold missing entries (a checkout that changed a few
    /// sources finds the rest in the pack of the build before), the fullest first, as the
    /// server's key index places them; the index is kept for the lookups.
    private func takeEarlierPacks(than packKey: ContentHash, from remote: RemoteCache, into taken: inout TakenEntries) {
        let index = remoteKeyIndex(remote)
        pack.remoteKeys.withLock { $0 = index }
        var holding: [ContentHash: Int] = [:]
        for key in taken.missing where taken.entries[key] == nil {
            if case .pack(let other) = index?.location(of: key), other != packKey { holding[other, default: 0] += 1 }
        }
        for (other, _) in holding.sorted(by: { ($0.value, $0.key) > ($1.value, $1.key) }).prefix(Self.packsTaken)
        where !taken.isComplete {
            _ = takeRemotePack(other, from: remote, into: &taken)
        }
    }

    /// Brings the blobs the taken entries name and this cache lacks: the large ones (bundles)
    /// alongside the segments, largest first, so that one long download does not come last; the
    /// byte copies of this checkout's sources are copied in meanwhile, a share per task (hashing
    /// and copying them while the downloads wait on the network, rather than before the first
    /// one starts).
    private func bringBlobs(of taken: TakenEntries, from remote: RemoteCache) async {
        let (lacking, fromSources) = lackingBlobs(of: taken.entries.values)
        let large = lacking.filter { $0.value > ResultPack.segmentBlobLimit }.sorted { ($0.value, $0.key) > ($1.value, $1.key) }
        var seen = Set<ContentHash>()
        let segments = taken.packs.flatMap(\.segments).filter { segment in
            segment.blobs.contains { lacking[$0.sha256] != nil } && seen.insert(segment.sha256).inserted
        }
        let needed = Set(lacking.keys)
        let copies = fromSources.sorted()
        let shares = copies.isEmpty ? 0 : min(Self.segmentConcurrency / 2, copies.count)
        await ParallelWork.run(count: large.count + shares + segments.count, width: Self.segmentConcurrency) { index in
            if index < large.count {
                let (hash, size) = large[index]
                if remote.fetchBlob(hash, size: size, to: self.folder.blob(hash), temporaryFolder: self.folder.temporary) {
                    self.noteBrought(hash)
                }
            } else if index < large.count + shares {
                // A source that changed since it was hashed is not placed: its job's restore
                // finds the blob missing and the job runs.
                for hash in stride(from: index - large.count, to: copies.count, by: shares).map({ copies[$0] })
                where self.sources.place(hash, in: self.folder) {
                    self.noteBrought(hash)
                }
            } else {
                self.unpack(segments[index - large.count - shares], keeping: needed, from: remote)
            }
        }
    }

    /// The blobs `entries` name that the store lacks: by size, those to fetch; apart, those a
    /// source of this checkout holds.
    private func lackingBlobs(of entries: some Sequence<ActionEntry>) -> (fetch: [ContentHash: Int], fromSources: Set<ContentHash>) {
        var fetch: [ContentHash: Int] = [:]
        var fromSources = Set<ContentHash>()
        for entry in entries {
            for output in entry.outputs where FileStat(path: folder.blob(output.sha256)) == nil {
                if sources.contains(output.sha256) {
                    fromSources.insert(output.sha256)
                } else {
                    fetch[output.sha256] = output.size
                }
            }
        }
        return (fetch, fromSources)
    }

    /// A blob brought into the store and checked on the way: not hashed again this run, and
    /// offered to the first output that wants it (`LentBlobs`).
    func noteBrought(_ hash: ContentHash) {
        pack.checkedBlobs.withLock { _ = $0.insert(hash) }
        lentBlobs.brought([hash])
    }

    /// The server's key index: empty when it has none (a cold cache), nil when the one it has
    /// is damaged (reported; every lookup then asks the server).
    private func remoteKeyIndex(_ remote: RemoteCache) -> RemoteKeyIndex? {
        guard let bytes = remote.action(RemoteKeyIndex.key, limit: RemoteCache.keyIndexLimit) else { return RemoteKeyIndex() }
        guard let index = RemoteKeyIndex.parse(bytes) else {
            remote.reportDamaged("ac/\(RemoteKeyIndex.key.hex)")
            return nil
        }
        return index
    }

    /// After the run's uploads: lists in the server's key index, read again just before
    /// (narrowing the race with another writer to this moment), every key of the run at its
    /// pack when the server has the run's pack, else the keys whose own entries it stored.
    func publishKeyIndex(pack packKey: ContentHash?) {
        // After any failure the index may not have been readable: writing this run's keys alone
        // over it would hide every other writer's.
        guard let remote, !remote.readOnly, remote.warnings.isEmpty else { return }
        let keys = packKey != nil ? Set(pack.keys.withLock { $0 }) : remote.storedEntryKeys
        guard !keys.isEmpty else { return }
        let bytes = remote.action(RemoteKeyIndex.key, limit: RemoteCache.keyIndexLimit)
        let latest = bytes.flatMap(RemoteKeyIndex.parse) ?? RemoteKeyIndex()
        let updated = latest.listing(keys, at: packKey.map { .pack($0) } ?? .entry)
        if updated != latest { _ = remote.upload(entry: updated.serialised(), as: RemoteKeyIndex.key) }
    }

    /// The pack this cache kept for `key`, else the newest it kept, checked; touched, since its
    /// modification time is its last use for pruning. A damaged one is removed.
    private func localPack(_ key: ContentHash, newest: String?) -> ResultPack? {
        let own = folder.pack(key)
        let candidates = FileStat(path: own) != nil ? [own] : newest.map { [$0] } ?? []
        for path in candidates {
            guard let bytes = BlobCopy.read(path), let found = ResultPack.parse(bytes) else {
                unlink(path)
                continue
            }
            FileStat.touch(path)
            return found
        }
        return nil
    }

    /// Keeps a remote pack's record (already checked) under `packs/`, and only the newest few.
    private func keepLocally(_ bytes: [UInt8], as key: ContentHash) {
        guard BlobCopy.place(bytes, at: folder.pack(key), temporaryFolder: folder.temporary) else { return }
        for old in localPacks().dropFirst(Self.localPackLimit) { unlink(old.path) }
    }

    /// The packs under `packs/`, newest first.
    private func localPacks() -> [(path: String, modified: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.packs)) ?? []
        return names.compactMap { name in
            let path = "\(folder.packs)/\(name)"
            return ContentHash(hex: name) != nil ? FileStat(path: path).map { (path, $0.modifiedNanoseconds) } : nil
        }.sorted { ($0.modified, $0.path) > ($1.modified, $1.path) }
    }

    /// Places the segment's blobs this cache lacks, each checked against its own SHA-256 as it
    /// arrives (which is all the checking a segment needs: only the blobs cut from it are used). A
    /// blob that does not match is left to the per-job requests, and the segment is reported once.
    private func unpack(_ segment: ResultPack.Segment, keeping needed: Set<ContentHash>, from remote: RemoteCache) {
        let placed = remote.fetchSegment(segment, keeping: needed, into: folder)
        pack.checkedBlobs.withLock { $0.formUnion(placed) }
        lentBlobs.brought(placed)
    }

    /// After a complete run (every job's entry stored or hit) with a writable remote cache that
    /// lacks its pack: uploads the segments, any large blob the server lacks, then the pack. The
    /// pack's key when the server has it (stored now or before), else nil.
    func publishPack() async -> ContentHash? {
        guard let remote, !remote.readOnly, remote.storesPacks else { return nil }
        let keys = pack.keys.withLock { $0 }
        let results = pack.results.withLock { $0 }
        guard !keys.isEmpty, keys.allSatisfy({ results[$0] != nil }) else { return nil }
        let packKey = ResultPack.key(for: keys)
        guard !remote.hasAction(packKey) else { return packKey }
        let entries = Set(keys).sorted().map { ResultPack.Result(key: $0, entry: results[$0]!) }
        // Too large a record is known before any segment goes up (segments add a line per blob).
        guard let bare = try? ResultPack(results: entries, segments: []).serialised(),
              bare.count < ResultPack.recordLimit * 3 / 4 else { return nil }
        // Byte copies of the checkout's sources are restored from the sources, not the pack.
        let blobs = entries.flatMap(\.entry.outputs).filter { !sources.contains($0.sha256) }
            .map { ResultPack.Blob(sha256: $0.sha256, size: $0.size) }
        var large = Set<ContentHash>()
        // Blobs this run stored or checked are not hashed again (readers check each one anyway).
        let checked = pack.checkedBlobs.withLock { $0 }
        let uploaded = pack.uploadedBlobs.withLock { $0 }
        for blob in blobs where blob.size > ResultPack.segmentBlobLimit && !uploaded.contains(blob.sha256)
            && large.insert(blob.sha256).inserted {
            guard remote.upload(blob.sha256, from: folder.blob(blob.sha256), hashed: checked.contains(blob.sha256)) else { return nil }
        }
        let groups = ResultPack.layout(blobs)
        let made = Mutex<[Int: ResultPack.Segment]>([:])
        let folder = folder
        await ParallelWork.run(count: groups.count, width: Self.segmentConcurrency) { index in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(groups[index].reduce(0) { $0 + $1.size })
            for blob in groups[index] {
                guard let data = BlobCopy.read(folder.blob(blob.sha256)), data.count == blob.size,
                      checked.contains(blob.sha256) || ContentHash.of(data) == blob.sha256 else { return }
                bytes += data
            }
            let hash = ContentHash.of(bytes)
            guard remote.upload(bytes, as: hash) else { return }
            made.withLock { $0[index] = ResultPack.Segment(sha256: hash, size: bytes.count, blobs: groups[index]) }
        }
        let segments = made.withLock { $0 }
        guard segments.count == groups.count,
              let bytes = try? ResultPack(results: entries, segments: groups.indices.map { segments[$0]! }).serialised(),
              bytes.count <= ResultPack.recordLimit else {
            return nil
        }
        return remote.upload(entry: bytes, as: packKey) ? packKey : nil
    }
}
