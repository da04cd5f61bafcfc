import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// What a cache folder holds: `tessera cache stats`.
public struct CacheStatistics: Sendable, Equatable {
    public var entries = 0
    /// Result packs kept from the remote cache (`packs/`), each standing for many entries.
    public var packs = 0
    /// Plan records (`plans/`): a build's plan, by its inputs.
    public var plans = 0
    public var blobs = 0
    /// Bytes of entries, blobs and the fingerprint index.
    public var bytes = 0
    /// Entries by the stage that made them.
    public var entriesByStage: [String: Int] = [:]
}

/// What `prune` removed.
public struct PruneResult: Sendable, Equatable {
    public var removedEntries = 0
    public var removedBlobs = 0
    public var bytesBefore = 0
    public var bytesAfter = 0
}

/// Looks after a cache folder: counts it, and trims it to a size, least recently used first.
///
/// An entry's modification time is its last use (a hit touches it; a kept result pack, which
/// counts as one entry, is touched by the run that reads it). Pruning keeps the most
/// recently used entries whose entries and blobs fit the size, removes the rest, then removes
/// blobs no kept entry names and temporary files older than an hour (a killed run's).
public struct CacheMaintenance: Sendable {
    public let folder: CacheFolder

    public init(folder: CacheFolder) { self.folder = folder }

    public func statistics() -> CacheStatistics {
        var statistics = CacheStatistics()
        for file in files(under: "ac") {
            statistics.entries += 1
            statistics.bytes += file.size
            let stage = BlobCopy.read(file.path).flatMap(ActionEntry.parse)?.stage ?? "(damaged)"
            statistics.entriesByStage[stage, default: 0] += 1
        }
        for file in files(under: "packs") {
            statistics.packs += 1
            statistics.bytes += file.size
        }
        for file in files(under: "plans") {
            statistics.plans += 1
            statistics.bytes += file.size
        }
        for file in files(under: "cas") {
            statistics.blobs += 1
            statistics.bytes += file.size
        }
        statistics.bytes += FileStat(path: folder.fingerprints).map { Int($0.size) } ?? 0
        return statistics
    }

    /// Removes least recently used entries until the cache holds at most `maxBytes`.
    public func prune(maxBytes: Int) -> PruneResult {
        FileLock.withExclusive(folder.lock) {
            var result = PruneResult()
            let blobs = Dictionary(files(under: "cas").map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            // A kept result pack counts as one entry naming the blobs of all its results; a plan
            // record as one naming none.
            let entries = (files(under: "ac") + files(under: "packs") + files(under: "plans")).sorted { ($0.modified, $0.path) > ($1.modified, $1.path) }
            let index = FileStat(path: folder.fingerprints).map { Int($0.size) } ?? 0
            result.bytesBefore = index + entries.reduce(0) { $0 + $1.size } + blobs.values.reduce(0) { $0 + $1.size }
            var kept: Set<String> = []
            var total = index
            var full = false
            for entry in entries {
                let parsed = outputs(of: entry.path)
                let named = Set(parsed?.map { folder.blob($0.sha256) } ?? []).filter { !kept.contains($0) }
                let cost = entry.size + named.reduce(0) { $0 + (blobs[$1]?.size ?? 0) }
                if parsed == nil || full || total + cost > maxBytes {
                    // Once one entry does not fit, older ones go too: strictly least recently used.
                    full = full || parsed != nil
                    unlink(entry.path)
                    result.removedEntries += 1
                    continue
                }
                total += cost
                kept.formUnion(named)
            }
            for blob in blobs.values where !kept.contains(blob.path) {
                unlink(blob.path)
                result.removedBlobs += 1
            }
            let hourAgo = FileStat.now() - 3_600_000_000_000
            for temporary in files(under: "tmp") where temporary.modified < hourAgo { unlink(temporary.path) }
            result.bytesAfter = total
            return result
        }
    }

    /// The outputs an entry or a kept pack names; nil when it is damaged.
    private func outputs(of path: String) -> [ActionEntry.Output]? {
        guard let bytes = BlobCopy.read(path) else { return nil }
        if path.hasPrefix("\(folder.plans)/") { return CheckedRecord.body(of: bytes) == nil ? nil : [] }
        if path.hasPrefix("\(folder.packs)/") { return ResultPack.parse(bytes)?.results.flatMap(\.entry.outputs) }
        return ActionEntry.parse(bytes)?.outputs
    }

    private struct FileInfo {
        let path: String
        let size: Int
        let modified: Int64
    }

    private func files(under sub: String) -> [FileInfo] {
        let root = "\(folder.path)/\(sub)"
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [FileInfo] = []
        while let relative = enumerator.nextObject() as? String {
            let path = "\(root)/\(relative)"
            guard let stat = FileStat(path: path) else { continue }
            found.append(FileInfo(path: path, size: Int(stat.size), modified: stat.modifiedNanoseconds))
        }
        return found
    }
}
