import JobEngine
import TesseraCore

/// Work a build hands to other machines before it runs its own jobs: a remote executor
/// (`RemoteExecution`) builds some work units there and puts their results in the cache the run
/// reads next, so the run restores them instead of running them. Whatever it does not do (an
/// executor that failed, a unit it cannot run) stays a miss the run does itself: it can make a
/// build faster, never different.
public protocol RemoteWork: Sendable {
    /// Builds what it can of `order`; returns the run's warnings (one per kind of problem).
    /// `cancellation`: the run's; once it is cancelled no more work should be sent.
    func perform(_ order: RemoteWorkOrder, cancellation: CancellationSource) async -> [String]
}

/// The per-asset part of a planned build, as units another machine can build alone.
public struct RemoteWorkOrder: Sendable {
    /// Work units (`WorkUnits`) that must travel together: every unit that reads a source of one
    /// asset, because the worker plans an asset's variants from all of its sources (a 1x is
    /// downscaled from the 2x when there is one), so it needs them all to make the same jobs.
    public struct Unit: Sendable, Hashable {
        /// The work units' ids, what `BuildMode.units` names.
        public let ids: [ContentHash]
        /// Its jobs whose results are cached: what a worker hands back, each checked against
        /// its job before it is taken.
        public let cachedJobs: [CachedJob]
        /// Their cache keys.
        public var cacheKeys: [ContentHash] { cachedJobs.map(\.key) }
        /// The input files it needs, relative to the input folder: what its jobs read and every
        /// source of the assets they belong to.
        public let reads: [String]
        /// What its first job works on (an asset's master), for messages.
        public let subject: String
        /// The kinds of its jobs (a worker without a vector renderer cannot take a `rasterize`).
        public let kinds: Set<JobKind>
    }

    public let units: [Unit]
    public let inputFolder: String
    public let outputFolder: String

    init(graph: JobGraph, units: WorkUnits, sourceGroups: [[String]], inputFolder: String, outputFolder: String) {
        self.inputFolder = inputFolder
        self.outputFolder = outputFolder
        let prefix = inputFolder.hasSuffix("/") ? inputFolder : inputFolder + "/"
        var groupOf: [String: Int] = [:]
        for (index, group) in sourceGroups.enumerated() { for path in group { groupOf[path] = index } }

        // Each work unit's jobs and reads, then joined through the assets whose sources they read.
        let ids = units.units.keys.sorted()
        var reads: [[String]] = []
        var parent = Array(ids.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { (index, parent[index]) = (parent[index], parent[parent[index]]) }
            return index
        }
        var unitOfGroup: [Int: Int] = [:]
        for (index, id) in ids.enumerated() {
            var seen = Set<String>()
            let relative = units.units[id]!.compactMap { graph.job($0) }.flatMap(\.reads).compactMap { path -> String? in
                guard path.hasPrefix(prefix) else { return nil }
                let relative = String(path.dropFirst(prefix.count))
                return seen.insert(relative).inserted ? relative : nil
            }
            reads.append(relative)
            for group in Set(relative.compactMap { groupOf[$0] }) {
                if let other = unitOfGroup[group] {
                    let (a, b) = (root(index), root(other))
                    if a != b { parent[max(a, b)] = min(a, b) }
                } else {
                    unitOfGroup[group] = index
                }
            }
        }
        var members: [Int: [Int]] = [:]
        for index in ids.indices { members[root(index), default: []].append(index) }
        self.units = members.keys.sorted().map { first in
            let joined = members[first]!
            let jobs = joined.flatMap { units.units[ids[$0]]! }.compactMap { graph.job($0) }
            var files = Set<String>()
            var listed: [String] = []
            let assetSources = Set(joined.flatMap { reads[$0] }.compactMap { groupOf[$0] }).sorted().flatMap { sourceGroups[$0] }
            for path in joined.flatMap({ reads[$0] }) + assetSources where files.insert(path).inserted { listed.append(path) }
            return Unit(ids: joined.map { ids[$0] },
                        cachedJobs: jobs.compactMap(CachedJob.init),
                        reads: listed, subject: jobs.first?.subject ?? ids[first].hex, kinds: Set(jobs.map(\.kind)))
        }
    }
}
