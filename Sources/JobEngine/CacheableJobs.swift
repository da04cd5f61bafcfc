import Synchronization
import TesseraCore

/// Every cacheable job of a graph by its cache key: what a later run needs to restore the whole
/// build from the cache without planning it again (`restore(from:into:)`).
///
/// Only a graph in which a complete hit runs nothing has one: every job whose result the run
/// keeps or that nothing depends on is cacheable (an uncacheable one would have to run).
public struct CacheableJobs: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var key: ContentHash
        public var kind: JobKind
        /// Where the job's files go when not under the run's root (a job that writes none).
        public var root: String?
    }

    /// In the graph's order: the order `CacheResolution` looks them up in, so a result pack made
    /// for the planned run serves this list too.
    public var entries: [Entry]
    /// The other jobs per stage, which never run when every entry is a hit.
    public var avoided: [JobKind: Int]

    public init?(_ graph: JobGraph, root: String) {
        var dependents: Set<JobKey> = []
        for key in graph.keys { dependents.formUnion(graph.job(key)!.dependencies) }
        var entries: [Entry] = []
        var avoided: [JobKind: Int] = [:]
        for key in graph.keys {
            let job = graph.job(key)!
            guard let caching = job.caching else {
                guard dependents.contains(key), !job.keepsResult else { return nil }
                avoided[job.kind, default: 0] += 1
                continue
            }
            entries.append(Entry(key: caching.cacheKey(for: job), kind: job.kind, root: caching.root == root ? nil : caching.root))
        }
        self.entries = entries
        self.avoided = avoided
    }

    /// Restores every entry's files under `root` (entries looked up as a planned run would, many
    /// at once, after `prepare`); the counts per stage when all were hits, nil at the first miss
    /// (the files already restored are the ones the planned run would restore too).
    public func restore(from cache: any JobCache, into root: String) async -> [JobKind: CacheCounts]? {
        await cache.prepare(entries.map(\.key))
        let missed = Atomic<Bool>(false)
        let entries = self.entries
        await ParallelWork.run(count: entries.count, width: cache.lookupConcurrency) { index in
            guard !missed.load(ordering: .relaxed) else { return }
            let entry = entries[index]
            if cache.restore(entry.key, kind: entry.kind, into: entry.root ?? root) == nil {
                missed.store(true, ordering: .relaxed)
            }
        }
        guard !missed.load(ordering: .relaxed) else { return nil }
        var counts: [JobKind: CacheCounts] = [:]
        for entry in entries { counts[entry.kind, default: CacheCounts()].hits += 1 }
        for (stage, count) in avoided { counts[stage, default: CacheCounts()].avoided += count }
        return counts
    }
}
