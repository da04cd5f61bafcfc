import BuildCache
import Foundation
import JobEngine
import RemoteAPI
import Synchronization
import TesseraCore
import REAPIMessages
#if canImport(Glibc)
import Glibc
#endif

/// Takes what an action handed back (its worker's cache folder, as two output directories) into
/// this build's cache: for each job of its units, the entry the worker wrote, if it is that job's
/// (`ActionEntry.misfiling`: its key, its stage, exactly the files the plan says the job writes),
/// and every blob it names that this cache lacks, each checked against its SHA-256 before it is
/// placed, the entry written last (`BuildCache.adopt`). A job whose entry is absent (it failed
/// there), not its own, or whose blobs do not arrive simply stays a miss that the run builds here.
struct ResultAdoption {
    let store: ContentStore
    let cache: BuildCache

    /// What came of an action's results.
    struct Outcome {
        /// Entries written into the cache.
        var adopted = 0
        /// Entries or blobs that did not match their digests (damaged in the server's CAS, or
        /// on the way): not taken, so their jobs are built here.
        var damaged = 0
        /// Entries that are not their jobs' (another job's, or writing other files): not taken.
        var misfiled = 0
        /// What was wrong with the first of them, for the warning.
        var misfiling: String?
    }

    func adopt(_ result: Build_Bazel_Remote_Execution_V2_ActionResult, jobs: [CachedJob]) async throws(RemoteCallError) -> Outcome {
        var outcome = Outcome()
        guard let entries = try await tree(named: WorkerAction.entriesFolder, in: result),
              let blobs = try await tree(named: WorkerAction.blobsFolder, in: result) else { return outcome }
        // The entries first, then every blob they name that this cache lacks, each fetched once
        // (small ones many to a request: an action of eight masters makes dozens of variants),
        // then each entry whose blobs all arrived.
        var read: [(job: CachedJob, bytes: Data)] = []
        let wanted = jobs.compactMap { job in entries.files[Self.storePath(job.key)].map { (job, $0) } }
        let fetched = try await fetchAll(wanted.map(\.1))
        for (job, digest) in wanted {
            guard let bytes = fetched[digest] else { continue }
            guard ContentHash.of(bytes) == digest.contentHash else {
                outcome.damaged += 1
                continue
            }
            read.append((job, bytes))
        }
        var missing: [ContentHash: BuildCache.WantedBlob] = [:]
        var usable: [(job: CachedJob, bytes: Data)] = []
        for entry in read {
            let blobsWanted: [BuildCache.WantedBlob]
            do {
                blobsWanted = try cache.blobsWanted(by: [UInt8](entry.bytes), for: entry.job)
            } catch {
                switch error {
                case .damaged:
                    outcome.damaged += 1
                case .misfiled(let problem):
                    outcome.misfiled += 1
                    outcome.misfiling = outcome.misfiling ?? problem
                }
                continue
            }
            // A blob the worker did not hand back (a source copied as it is, say) stays wanted.
            guard blobsWanted.allSatisfy({ blobs.files[Self.storePath($0.sha256)]?.sizeBytes == Int64($0.size) }) else { continue }
            for blob in blobsWanted { missing[blob.sha256] = blob }
            usable.append(entry)
        }
        outcome.damaged += try await place(Array(missing.values).sorted { $0.sha256 < $1.sha256 }, from: blobs)
        for entry in usable where cache.adopt(entry: [UInt8](entry.bytes), for: entry.job) { outcome.adopted += 1 }
        return outcome
    }

    /// The blobs of `digests` (entries: small), batched by the message limit; one larger than a
    /// batch is streamed alone.
    private func fetchAll(_ digests: [REAPIDigest]) async throws(RemoteCallError) -> [REAPIDigest: Data] {
        let limit = ServerLimits.messageLimit - ServerLimits.headroom
        var found: [REAPIDigest: Data] = [:]
        for group in Self.batches(digests, limit: limit) {
            if group.count == 1, Int(group[0].sizeBytes) > limit {
                if let bytes = try await whole(group[0]) { found[group[0]] = bytes }
            } else {
                found.merge(try await store.read(group)) { first, _ in first }
            }
        }
        return found
    }

    /// Brings `wanted` into the cache's store from the action's blobs: small ones in batch reads,
    /// each checked and placed through a temporary file and a rename; large ones streamed. The
    /// number that did not match their digests.
    private func place(_ wanted: [BuildCache.WantedBlob], from blobs: OutputTree) async throws(RemoteCallError) -> Int {
        var damaged = 0
        let limit = ServerLimits.messageLimit - ServerLimits.headroom
        let small = wanted.filter { $0.size <= Self.batchedBlobLimit }
        let sources = Dictionary(uniqueKeysWithValues: wanted.compactMap { blob in
            blobs.files[Self.storePath(blob.sha256)].map { (blob.sha256, $0) }
        })
        let byHash = Dictionary(uniqueKeysWithValues: small.map { ($0.sha256, $0) })
        for group in Self.batches(small.compactMap { sources[$0.sha256] }, limit: limit) {
            let read = try await store.read(group)
            for digest in group {
                guard let hash = digest.contentHash, let blob = byHash[hash] else { continue }
                guard let bytes = read[digest], bytes.count == blob.size, ContentHash.of(bytes) == hash else {
                    damaged += 1
                    continue
                }
                placeChecked(bytes, as: blob)
            }
        }
        for blob in wanted where blob.size > Self.batchedBlobLimit {
            guard let source = sources[blob.sha256] else { continue }
            if try await !fetch(source, to: blob) { damaged += 1 }
        }
        return damaged
    }

    /// Blobs up to this size are read in batches; larger ones are streamed to their file.
    static let batchedBlobLimit = 1 << 20

    /// Puts checked bytes in the store through a temporary file and a rename.
    private func placeChecked(_ bytes: Data, as blob: BuildCache.WantedBlob) {
        let temporary = "\(blob.temporaryFolder)/adopt-\(UUID().uuidString)"
        let folder = (blob.destination as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: temporary, contents: bytes) else { return }
        if rename(temporary, blob.destination) != 0 { unlink(temporary) }
    }

    /// `ab/abcdef…`: where a cache folder keeps a key's entry or a hash's blob.
    static func storePath(_ hash: ContentHash) -> String {
        "\(hash.hex.prefix(2))/\(hash.hex)"
    }

    /// The files of the output directory at `path`, nil when the action did not hand it back.
    private func tree(named path: String, in result: Build_Bazel_Remote_Execution_V2_ActionResult) async throws(RemoteCallError) -> OutputTree? {
        guard let directory = result.outputDirectories.first(where: { $0.path == path }) else { return nil }
        let digest = directory.treeDigest
        guard let bytes = try await whole(digest) else {
            throw RemoteCallError("the output tree \(digest.hash)/\(digest.sizeBytes) of \(path) is not in the CAS")
        }
        do {
            return try OutputTree(treeBytes: bytes)
        } catch {
            throw RemoteCallError("the output tree of \(path): \(error.reason)")
        }
    }

    /// The most a tree or an entry read whole may be: a batch's tree lists a few thousand files,
    /// an entry a job's outputs and metadata. A server declaring more is not believed.
    static let wholeLimit = 64 << 20

    /// A blob read whole into memory (a tree or an entry: small), checked against its digest.
    private func whole(_ digest: REAPIDigest) async throws(RemoteCallError) -> Data? {
        guard digest.sizeBytes >= 0, digest.sizeBytes <= Self.wholeLimit else {
            throw RemoteCallError("an action's output names a \(digest.sizeBytes)-byte tree or entry, more than it can be")
        }
        if Int(digest.sizeBytes) <= ServerLimits.messageLimit - ServerLimits.headroom {
            guard let bytes = try await store.read([digest])[digest], ContentHash.of(bytes) == digest.contentHash else { return nil }
            return bytes
        }
        let collected = Collected()
        guard let reading = try await store.stream(digest, into: { collected.append($0) }),
              !reading.stopped, reading.hash == digest.contentHash, reading.size == Int(digest.sizeBytes) else { return nil }
        return collected.data.withLock { $0 }
    }

    /// Streams `digest` into a temporary file and renames it to `blob.destination` once its
    /// bytes match; false when they do not arrive or do not match.
    private func fetch(_ digest: REAPIDigest, to blob: BuildCache.WantedBlob) async throws(RemoteCallError) -> Bool {
        let temporary = "\(blob.temporaryFolder)/adopt-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let reading: ContentStore.Reading?
        do {
            reading = try await store.stream(digest) { piece in
                var offset = 0
                while offset < piece.count {
                    let written = write(descriptor, piece.baseAddress! + offset, piece.count - offset)
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        let closed = close(descriptor) == 0
        guard closed, let reading, !reading.stopped, reading.hash == blob.sha256, reading.size == blob.size else {
            unlink(temporary)
            return false
        }
        let folder = (blob.destination as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard rename(temporary, blob.destination) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Digests grouped so that each group's bytes fit one batch read.
    static func batches(_ digests: [REAPIDigest], limit: Int) -> [[REAPIDigest]] {
        var groups: [[REAPIDigest]] = []
        var current: [REAPIDigest] = []
        var bytes = 0
        for digest in digests {
            let size = Int(digest.sizeBytes) + ServerLimits.perBlobOverhead
            if !current.isEmpty, bytes + size > limit {
                groups.append(current)
                current = []
                bytes = 0
            }
            current.append(digest)
            bytes += size
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    private final class Collected: Sendable {
        let data = Mutex(Data())
        func append(_ piece: UnsafeRawBufferPointer) -> Bool {
            data.withLock { $0.append(contentsOf: piece) }
            return true
        }
    }
}
