import Synchronization
import TesseraCore

/// Decides, before anything runs, what the cache makes unnecessary.
///
/// Every cacheable job is a goal (its files must end up in the output folder), so each is looked
/// up, all at once; a hit restores its files there. Then the jobs to run are found from the goals
/// (and the sinks) downwards: a missed or uncacheable job needs its dependencies, a hit needs
/// nothing, so the decode, downscale and encode behind a hit never run. A hit that a job still
/// to run reads (or whose result the caller keeps) becomes a stand-in returning the restored result;
/// an entry whose result cannot be decoded is a miss, and the search is repeated without it.
struct CacheResolution {
    var graph: JobGraph
    var counts: [JobKind: CacheCounts]

    static func resolve(_ graph: JobGraph, cache: any JobCache) async -> CacheResolution {
        let order = graph.keys
        let cacheable = order.filter { graph.job($0)!.caching != nil }
        let cacheKeys = cacheable.map { graph.job($0)!.caching!.cacheKey(for: graph.job($0)!) }
        await cache.prepare(cacheKeys)
        let found = Mutex<[JobKey: [UInt8]]>([:])
        await ParallelWork.run(count: cacheable.count, width: cache.lookupConcurrency) { index in
            let job = graph.job(cacheable[index])!
            if let metadata = cache.restore(cacheKeys[index], kind: job.kind, into: job.caching!.root) {
                found.withLock { $0[job.key] = metadata }
            }
        }
        var hits = found.withLock { $0 }
        var dependents: [JobKey: Int] = [:]
        for key in order { for dependency in Set(graph.job(key)!.dependencies) { dependents[dependency, default: 0] += 1 } }
        let goals = order.filter {
            let job = graph.job($0)!
            return job.caching != nil || job.keepsResult || dependents[$0] == nil
        }

        while true {
            // Downwards from the goals: what must run, and which hits a job to run reads.
            var needed = Set(goals)
            var stack = goals
            var read: Set<JobKey> = []
            while let key = stack.popLast() {
                guard hits[key] == nil else { continue }
                for dependency in graph.job(key)!.dependencies {
                    if hits[dependency] != nil { read.insert(dependency) }
                    if needed.insert(dependency).inserted { stack.append(dependency) }
                }
            }
            for key in goals where hits[key] != nil && graph.job(key)!.keepsResult { read.insert(key) }
            let toDecode = read.sorted()
            let decoded = Mutex<[JobKey: any Sendable]>([:])
            let metadata = hits
            await ParallelWork.run(count: toDecode.count, width: cache.lookupConcurrency) { index in
                let job = graph.job(toDecode[index])!
                if let value = try? job.caching!.decode(metadata[job.key]!) {
                    decoded.withLock { $0[job.key] = value }
                }
            }
            let values = decoded.withLock { $0 }
            let undecodable = toDecode.filter { values[$0] == nil }
            if !undecodable.isEmpty {
                for key in undecodable { hits[key] = nil }
                continue
            }
            return CacheResolution(graph: runGraph(graph, order: order, needed: needed, hits: hits, values: values),
                                   counts: counts(graph, order: order, needed: needed, hits: hits))
        }
    }

    private static func runGraph(_ graph: JobGraph, order: [JobKey], needed: Set<JobKey>, hits: [JobKey: [UInt8]],
                                 values: [JobKey: any Sendable]) -> JobGraph {
        var run = JobGraph()
        for key in order where needed.contains(key) {
            let job = graph.job(key)!
            guard hits[key] != nil else {
                run.add(job)
                continue
            }
            guard let value = values[key] else { continue }
            var standIn = AnyJob(key: job.key, kind: job.kind, subject: job.subjectParts, resultMemoryCost: job.resultMemoryCost,
                              priority: job.priority, keepsResult: job.keepsResult) { _ in value }
            standIn.isCacheHit = true
            run.add(standIn)
        }
        return run
    }

    private static func counts(_ graph: JobGraph, order: [JobKey], needed: Set<JobKey>,
                               hits: [JobKey: [UInt8]]) -> [JobKind: CacheCounts] {
        var counts: [JobKind: CacheCounts] = [:]
        for key in order {
            let job = graph.job(key)!
            if hits[key] != nil {
                counts[job.kind, default: CacheCounts()].hits += 1
            } else if !needed.contains(key) {
                counts[job.kind, default: CacheCounts()].avoided += 1
            } else if job.caching != nil {
                counts[job.kind, default: CacheCounts()].misses += 1
            }
        }
        return counts
    }
}
