import Foundation
import JobEngine
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Tessera's build cache: an action cache (cache key → `ActionEntry`) and a content-addressed
/// store (blobs by SHA-256) in a `CacheFolder`, optionally backed by a `RemoteCache`, plus the
/// `FingerprintIndex` that spares re-hashing unchanged files.
///
/// Nothing it reads is trusted: an entry is checked against its own hash, every blob against the
/// hash the entry names, and whatever fails is deleted and counted a miss, so the job reruns and
/// its result replaces the damaged one. It never fails a build: problems become warnings.
public final class BuildCache: JobCache, FileHashing, Sendable {
    public let folder: CacheFolder
    public let fingerprints: FingerprintIndex
    public let remote: RemoteCache?
    private let problems = Mutex<[String: String]>([:])
    /// Output folders restored into this run, flushed once at its end.
    private let restoredRoots = Mutex<Set<String>>([])
    /// This run's dealings with result packs (`ResultPackExchange.swift`).
    let pack = PackSession()
    let sources = SourceBlobs()
    /// When this cache object was opened (on the file times' clock).
    private let runStarted = FileStat.now()
    /// Blobs brought this run that move into their first output (`LentBlobs`).
    let lentBlobs = LentBlobs()

    /// The run's input files by content hash (`InputTree`): outputs equal to one are restored
    /// from it and never uploaded.
    public func useSources(_ files: [ContentHash: String]) {
        sources.use(files)
    }

    /// Opens (creating) the cache at `folder`; throws naming the folder when it cannot be written.
    public init(folder: CacheFolder, remote: RemoteCache? = nil) throws(TesseraError) {
        try folder.prepare()
        self.folder = folder
        self.remote = remote
        self.fingerprints = FingerprintIndex(file: folder.fingerprints)
    }

    /// Threads for the lookups: more than the cores while they wait on a remote server; the cores
    /// when every lookup is local (no remote, a result pack brought every missing entry, or the
    /// server's key index lists none).
    public var lookupConcurrency: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let asksServer = remote != nil && !pack.coversRun.withLock({ $0 })
            && pack.remoteKeys.withLock({ $0?.listsEntries ?? true })
        return asksServer ? max(16, cores) : cores
    }

    /// One warning per kind of problem met during the run (the remote cache unreachable, say).
    public var warnings: [String] {
        problems.withLock { Array($0.values) }.sorted() + (remote?.warnings ?? [])
    }

    public func contentHash(ofFileAt path: String) throws(TesseraError) -> ContentHash {
        try fingerprints.contentHash(ofFileAt: path)
    }

    /// Flushes the files restored this run, then saves the fingerprints it learnt; call once the
    /// run is over. Restored files skip a per-file `fsync` as they are placed (on a warm build
    /// that was most of the wall time): they are flushed together here (`DurableWrites`, the
    /// restored files and their folders, nothing else of the file system), before the index is
    /// saved, so a power cut in between leaves files the next run sees as changed.
    public func finishRun() async {
        for root in restoredRoots.withLock({ $0.sorted() }) where !DurableWrites.flush(under: root) {
            note("flush", "could not flush the restored files in \(root) to disk")
        }
        await returnLentBlobs()
        fingerprints.save(temporaryFolder: folder.temporary, lock: folder.lock)
        await remote?.waitForUploads()
        let packed = await publishPack()
        // The entries held back for the pack go up one by one only when no pack holds them.
        if packed == nil, let remote, !remote.readOnly {
            for (key, entry) in pack.heldBack.withLock({ $0 }) {
                if let record = try? entry.serialised() { upload(key, entry, record: record, to: remote) }
            }
            await remote.waitForUploads()
        }
        publishKeyIndex(pack: packed)
    }

    public func restore(_ key: ContentHash, kind: JobKind, into root: String) -> [UInt8]? {
        guard let (entry, origin) = lookUp(key), entry.stage == kind.rawValue,
              place(entry, key: key, fetched: origin == .server, into: root) else { return nil }
        pack.record(key, entry)
        // An entry from a pack stays in the pack's local copy (`packs/`), read whole by later runs.
        switch origin {
        case .store: FileStat.touch(folder.action(key))
        case .server:
            if let bytes = try? entry.withoutContents.serialised() {
                _ = BlobCopy.place(bytes, at: folder.action(key), temporaryFolder: folder.temporary)
            }
        case .pack: break
        }
        return Array(entry.metadata)
    }

    /// Where a job's entry was found.
    private enum EntryOrigin { case store, pack, server }

    /// The entry stored for `key`: in this cache's store, else in a pack this run took, else on
    /// the server. One that is damaged or another job's is a miss (and leaves the store).
    private func lookUp(_ key: ContentHash) -> (ActionEntry, EntryOrigin)? {
        let actionPath = folder.action(key)
        if let entry = BlobCopy.read(actionPath).flatMap(ActionEntry.parse) {
            if entry.key == key { return (entry, .store) }
            // Another job's result under this job's key: the run builds it again and stores the
            // right one in its place (issue 54, item 9).
            note("misfiled", "an entry in the cache at \(folder.path) was another job's (\(entry.key.hex.prefix(12))… under \(key.hex.prefix(12))…); its job was built again")
        }
        if FileStat(path: actionPath) != nil { unlink(actionPath) }
        if let entry = pack.entries.withLock({ $0[key] }) { return entry.key == key ? (entry, .pack) : nil }
        guard let remote, pack.remoteMayHold(key), let stored = remote.entry(key) else { return nil }
        guard let entry = ActionEntry.parse(stored.record)?.carrying(stored.contents), entry.key == key else {
            remote.reportDamaged("ac/\(key.hex)")
            return nil
        }
        return (entry, .server)
    }

    /// Puts every output of `entry` in place under `root`, all or none: each is staged first (an
    /// output whose file already has its bytes is left alone), then all are committed; if one
    /// cannot be, the rest are discarded and blobs moved out of the store are given back.
    private func place(_ entry: ActionEntry, key: ContentHash, fetched: Bool, into root: String) -> Bool {
        var pending: [(placement: BlobPlacement, hash: ContentHash)] = []
        func discard(_ files: some Sequence<(placement: BlobPlacement, hash: ContentHash)>) {
            for file in files {
                file.placement.discard()
                if file.placement.movedBlob { lentBlobs.giveBack(file.hash) }
            }
        }
        var inlineFromServer: [ContentHash: [UInt8]]?
        for output in entry.outputs {
            guard let target = Self.join(root, output.path) else { discard(pending); return false }
            if fingerprints.knownHash(ofFileAt: target) == output.sha256 {
                OutputLedger.record(target)
                continue
            }
            guard let placement = stage(output, at: target, key: key, fetched: fetched, inlineFromServer: &inlineFromServer) else {
                discard(pending)
                return false
            }
            pending.append((placement, output.sha256))
        }
        if !pending.isEmpty { restoredRoots.withLock { _ = $0.insert(root) } }
        for (index, file) in pending.enumerated() {
            guard file.placement.commit() else {
                if file.placement.movedBlob { lentBlobs.giveBack(file.hash) }
                discard(pending[(index + 1)...])
                return false
            }
            fingerprints.recordWritten(file.placement.target, hash: file.hash)
        }
        return true
    }

    /// Stages `output`'s bytes for `target`: the blob itself when this run brought it and no
    /// output took it yet (`LentBlobs`), else a copy from wherever the bytes are now (the store, or
    /// the output of this run they moved into), bringing them into the store first when neither
    /// has them. Nil when they cannot be had, or the store's blob is damaged.
    ///
    /// Every job that restores the same bytes goes through here at once (identical icons, copies of
    /// one image): the bytes are opened through `LentBlobs`, never by the store's path, which a
    /// move by another job may take away between a look and a read (issue 51).
    private func stage(_ output: ActionEntry.Output, at target: String, key: ContentHash, fetched: Bool,
                       inlineFromServer: inout [ContentHash: [UInt8]]?) -> BlobPlacement? {
        let hash = output.sha256, blob = folder.blob(hash)
        for attempt in 0..<2 {
            if lentBlobs.take(hash) {
                if let moved = BlobPlacement(moving: blob, hash: hash, target: target, ledger: lentBlobs) { return moved }
                lentBlobs.giveBack(hash)
            }
            if let source = lentBlobs.open(hash, store: blob) {
                defer { close(source.descriptor) }
                guard source.lent || holds(source, hash) else { return nil }
                return BlobPlacement(source: source.descriptor, target: target)
            }
            guard attempt == 0, bring(output, key: key, fetched: fetched, inlineFromServer: &inlineFromServer) else { return nil }
        }
        return nil
    }

    /// Whether the store's blob opened as `source` has `hash`'s bytes. A blob this run checked
    /// (brought, stored, or in a segment) is not read again; another is hashed unless its `stat`
    /// is unchanged since this cache wrote or hashed it (an edit in place changes its change time).
    /// A damaged blob goes, so the rerun's result takes its place.
    private func holds(_ source: LentBlobs.Opened, _ hash: ContentHash) -> Bool {
        if pack.checkedBlobs.withLock({ $0.contains(hash) }) { return true }
        if let known = try? fingerprints.contentHash(ofFileAt: source.path) {
            if known == hash { return true }
        } else if BlobCopy.hash(open: source.descriptor)?.0 == hash {
            // Its path gone since it was opened (moved into another job's output): the open file is read.
            return true
        }
        unlink(source.path)
        return false
    }

    /// Puts `output`'s blob in the store, checked: the bytes a remote entry carried inline, a byte
    /// copy of one of this checkout's sources, the job's own remote entry, or the server's blob. It
    /// is marked checked before it is offered to a move (`LentBlobs.brought`), so no reader hashes a
    /// blob that may move away under it.
    private func bring(_ output: ActionEntry.Output, key: ContentHash, fetched: Bool,
                       inlineFromServer: inout [ContentHash: [UInt8]]?) -> Bool {
        let hash = output.sha256, blob = folder.blob(hash)
        if let contents = output.contents {
            // Inline in a remote entry (checked by the entry's hash), checked again as a blob.
            let bytes = [UInt8](contents)
            guard bytes.count == output.size, ContentHash.of(bytes) == hash,
                  BlobCopy.place(bytes, at: blob, temporaryFolder: folder.temporary) else { return false }
        } else if sources.place(hash, in: folder) {
            // A byte copy of one of this checkout's sources, checked by hash on the way.
        } else {
            // An entry from a pack names its small outputs without their bytes (a segment
            // brings them); when a segment failed, the job's own entry carries them inline.
            if !fetched, inlineFromServer == nil, output.size <= (remote?.inlineLimit ?? 0) {
                inlineFromServer = remote?.entry(key)?.contents ?? [:]
            }
            if let bytes = inlineFromServer?[hash] {
                // Checked against its digest when the entry was read.
                guard BlobCopy.place(bytes, at: blob, temporaryFolder: folder.temporary) else { return false }
            } else {
                // Checked on arrival, so it is placed without being read again.
                guard let remote, remote.fetchBlob(hash, size: output.size, to: blob, temporaryFolder: folder.temporary) else {
                    return false
                }
            }
        }
        noteBrought(hash)
        return true
    }

    /// After the outputs' flush: the store takes back a copy of each blob moved into an output,
    /// unless the output changed since (then a later run fetches the blob again).
    private func returnLentBlobs() async {
        let lent = lentBlobs.takeAll()
        let folder = folder, fingerprints = fingerprints
        await ParallelWork.run(count: lent.count, width: ProcessInfo.processInfo.activeProcessorCount) { index in
            let (hash, output) = lent[index]
            guard FileStat(path: folder.blob(hash)) == nil, fingerprints.knownHash(ofFileAt: output) == hash else { return }
            if BlobCopy.store(output, knownHash: hash, to: folder.blob, temporaryFolder: folder.temporary) != nil {
                fingerprints.recordWritten(folder.blob(hash), hash: hash)
            }
        }
    }

    public func store(_ key: ContentHash, kind: JobKind, result: CachedResult, from root: String) {
        var outputs: [ActionEntry.Output] = []
        for path in result.files {
            guard let source = Self.join(root, path),
                  let (hash, size) = BlobCopy.store(source, knownHash: result.knownHashes[path], to: folder.blob,
                                                    temporaryFolder: folder.temporary) else {
                note("local", "could not store \(root)/\(path) in the cache at \(folder.path)")
                return
            }
            // A blob this run brought may have moved into a restored output meanwhile: once a job
            // stored it, it stays in the store, where its uploads and the pack read it.
            if !lentBlobs.keep(hash, store: folder.blob(hash)) {
                guard BlobCopy.store(source, knownHash: hash, to: folder.blob, temporaryFolder: folder.temporary) != nil else {
                    note("local", "could not store \(root)/\(path) in the cache at \(folder.path)")
                    return
                }
            }
            fingerprints.recordWritten(source, hash: hash)
            // A blob made in this run holds the bytes just hashed; an older one is checked on use.
            let blob = folder.blob(hash)
            if let made = FileStat(path: blob), made.changedNanoseconds >= runStarted {
                fingerprints.recordWritten(blob, hash: hash)
            }
            outputs.append(ActionEntry.Output(path: path, sha256: hash, size: size))
        }
        // Hashed just now: uploads and the pack take these blobs without reading them twice.
        pack.checkedBlobs.withLock { $0.formUnion(outputs.map(\.sha256)) }
        let entry = ActionEntry(key: key, stage: kind.rawValue, outputs: outputs, metadata: result.metadata)
        guard let bytes = try? entry.serialised(),
              BlobCopy.place(bytes, at: folder.action(key), temporaryFolder: folder.temporary) else {
            note("local", "could not write an entry in the cache at \(folder.path)")
            return
        }
        pack.record(key, entry)
        guard let remote, !remote.readOnly else { return }
        guard !remote.storesPacks else {
            // Held back: a complete run's pack will hold it, one request for thousands of jobs
            // (the key index then points at the pack); a run that stores no pack uploads it at its end.
            pack.heldBack.withLock { $0[key] = entry }
            // Outputs too large for a segment are blobs of their own whatever the pack's layout:
            // they go up now, beside the build.
            for output in outputs where output.size > ResultPack.segmentBlobLimit && !sources.contains(output.sha256) {
                let blob = folder.blob(output.sha256), pack = self.pack
                remote.inBackground {
                    if remote.upload(output.sha256, from: blob, hashed: true) {
                        pack.uploadedBlobs.withLock { _ = $0.insert(output.sha256) }
                    }
                }
            }
            return
        }
        upload(key, entry, record: bytes, to: remote)
    }

    /// Uploads one job's entry on the upload threads. Byte copies of sources stay out of the
    /// server: the record still names them, and a checkout that hits the entry has the source.
    /// Small outputs travel inline in the entry; the rest are blobs uploaded before it.
    /// `record` is the entry serialised, as the local cache stored it.
    private func upload(_ key: ContentHash, _ entry: ActionEntry, record bytes: [UInt8], to remote: RemoteCache) {
        let shared = entry.inlining(upTo: remote.inlineLimit, checked: true) { BlobCopy.read(folder.blob($0.sha256)) }
        let uploaded = shared.outputs.filter { !sources.contains($0.sha256) }
        let listed = uploaded.map {
            RemoteActionRecord.Output(path: $0.path, sha256: $0.sha256, size: $0.size, contents: $0.contents.map { [UInt8]($0) })
        }
        let blobs = uploaded.filter { $0.contents == nil }.map { ($0.sha256, folder.blob($0.sha256)) }
        remote.inBackground { remote.upload(key: key, record: bytes, outputs: listed, blobs: blobs, hashed: true) }
    }

    func note(_ kind: String, _ text: String) {
        problems.withLock { if $0[kind] == nil { $0[kind] = text } }
    }

    /// `root/relative`, or nil when `relative` could escape the root (an absolute path, `..`).
    static func join(_ root: String, _ relative: String) -> String? {
        guard !relative.isEmpty, !relative.hasPrefix("/"),
              !relative.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        return "\(root)/\(relative)"
    }
}
