import JobEngine
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

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

    /// Forgets an earlier run of the same cache and notes this one's keys.
    func begin(_ keys: [ContentHash]) {
        self.keys.withLock { $0 = keys }
        entries.withLock { $0 = [:] }
        checkedBlobs.withLock { $0 = [] }
        results.withLock { $0 = [:] }
    }

    func record(_ key: ContentHash, _ entry: ActionEntry) {
        results.withLock { $0[key] = entry.withoutContents }
    }
}

extension BuildCache {
    /// Segments downloaded or uploaded at once (each is held in memory while it is checked).
    static let segmentConcurrency = 4

    /// Before the lookups: when entries are missing locally and the remote cache has the pack of
    /// this very set of jobs, takes its entries and downloads the segments holding blobs this
    /// cache lacks, and the large blobs it lacks, so the lookups that follow are local.
    public func prepare(_ keys: [ContentHash]) async {
        pack.begin(keys)
        guard let remote else { return }
        let missing = Set(keys.filter { FileStat(path: folder.action($0)) == nil })
        pack.coversRun.withLock { $0 = missing.isEmpty }
        guard !missing.isEmpty, let bytes = remote.action(ResultPack.key(for: keys)) else { return }
        guard let found = ResultPack.parse(bytes) else {
            remote.reportDamaged("ac/\(ResultPack.key(for: keys).hex)")
            return
        }
        var entries: [ContentHash: ActionEntry] = [:]
        var lacking: [ContentHash: Int] = [:]
        for result in found.results where missing.contains(result.key) {
            entries[result.key] = result.entry
            for output in result.entry.outputs where FileStat(path: folder.blob(output.sha256)) == nil {
                lacking[output.sha256] = output.size
            }
        }
        pack.entries.withLock { $0 = entries }
        pack.coversRun.withLock { $0 = entries.count == missing.count }
        // The large blobs (bundles) alongside the segments, largest first, so that one long
        // download does not come last.
        let large = lacking.filter { $0.value > ResultPack.segmentBlobLimit }.sorted { ($0.value, $0.key) > ($1.value, $1.key) }
        let segments = found.segments.filter { $0.blobs.contains { lacking[$0.sha256] != nil } }
        let needed = Set(lacking.keys)
        await ParallelWork.run(count: large.count + segments.count, width: Self.segmentConcurrency) { index in
            guard index >= large.count else {
                let (hash, size) = large[index]
                if remote.fetchBlob(hash, size: size, to: self.folder.blob(hash), temporaryFolder: self.folder.temporary) {
                    self.pack.checkedBlobs.withLock { _ = $0.insert(hash) }
                }
                return
            }
            self.unpack(segments[index - large.count], keeping: needed, from: remote)
        }
    }

    /// Places the segment's blobs this cache lacks, each checked against its own SHA-256.
    private func unpack(_ segment: ResultPack.Segment, keeping needed: Set<ContentHash>, from remote: RemoteCache) {
        guard let bytes = remote.blob(segment.sha256, size: segment.size) else { return }
        var offset = 0
        for blob in segment.blobs {
            guard blob.size >= 0, offset + blob.size <= bytes.count else {
                remote.reportDamaged("cas/\(segment.sha256.hex)")
                return
            }
            defer { offset += blob.size }
            guard needed.contains(blob.sha256) else { continue }
            let slice = bytes[offset..<(offset + blob.size)]
            guard ContentHash.of(slice) == blob.sha256 else {
                remote.reportDamaged("cas/\(segment.sha256.hex)")
                return
            }
            if BlobCopy.place(Array(slice), at: folder.blob(blob.sha256), temporaryFolder: folder.temporary) {
                pack.checkedBlobs.withLock { _ = $0.insert(blob.sha256) }
            }
        }
    }

    /// After a complete run (every job's entry stored or hit) with a writable remote cache that
    /// lacks its pack: uploads the segments, any large blob the server lacks, then the pack.
    func publishPack() async {
        guard let remote, !remote.readOnly, remote.storesPacks else { return }
        let keys = pack.keys.withLock { $0 }
        let results = pack.results.withLock { $0 }
        guard !keys.isEmpty, keys.allSatisfy({ results[$0] != nil }) else { return }
        let packKey = ResultPack.key(for: keys)
        guard !remote.hasAction(packKey) else { return }
        let entries = Set(keys).sorted().map { ResultPack.Result(key: $0, entry: results[$0]!) }
        // Too large a record is known before any segment goes up (segments add a line per blob).
        guard let bare = try? ResultPack(results: entries, segments: []).serialised(),
              bare.count < ResultPack.recordLimit * 3 / 4 else { return }
        let blobs = entries.flatMap(\.entry.outputs).map { ResultPack.Blob(sha256: $0.sha256, size: $0.size) }
        var large = Set<ContentHash>()
        for blob in blobs where blob.size > ResultPack.segmentBlobLimit && large.insert(blob.sha256).inserted {
            guard remote.upload(blob.sha256, from: folder.blob(blob.sha256)) else { return }
        }
        let groups = ResultPack.layout(blobs)
        let made = Mutex<[Int: ResultPack.Segment]>([:])
        let folder = folder
        await ParallelWork.run(count: groups.count, width: Self.segmentConcurrency) { index in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(groups[index].reduce(0) { $0 + $1.size })
            for blob in groups[index] {
                guard let data = BlobCopy.read(folder.blob(blob.sha256)), data.count == blob.size,
                      ContentHash.of(data) == blob.sha256 else { return }
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
            return
        }
        _ = remote.upload(entry: bytes, as: packKey)
    }
}
