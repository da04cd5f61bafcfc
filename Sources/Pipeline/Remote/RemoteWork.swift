import JobEngine
import TesseraCore

/// Work a build hands to other machines before it runs its own jobs: a remote executor
/// (`RemoteExecution`) builds some work units there and puts their results in the cache the run
/// reads next, so the run restores them instead of running them. Whatever it does not do (an
/// executor that failed, a unit it cannot run) stays a miss the run does itself: it can make a
/// build faster, never different.
public protocol RemoteWork: Sendable {
    /// Builds what it can of `order`; returns the run's warnings (one per kind of problem).
    func perform(_ order: RemoteWorkOrder) async -> [String]
}

/// The per-asset part of a planned build, as units another machine can build alone.
public struct RemoteWorkOrder: Sendable {
    /// One work unit (`WorkUnits`): an asset's decode, downscales, encodes and writes.
    public struct Unit: Sendable, Hashable {
        /// The unit's id, what `BuildMode.units` names.
        public let id: ContentHash
        /// The cache keys of its jobs whose results are cached: what a worker hands back.
        public let cacheKeys: [ContentHash]
        /// The input files its jobs read, relative to the input folder.
        public let reads: [String]
        /// What its first job works on (an asset's master), for messages.
        public let subject: String
    }

    public let units: [Unit]
    public let inputFolder: String
    public let outputFolder: String

    init(graph: JobGraph, units: WorkUnits, inputFolder: String, outputFolder: String) {
        self.inputFolder = inputFolder
        self.outputFolder = outputFolder
        let prefix = inputFolder.hasSuffix("/") ? inputFolder : inputFolder + "/"
        self.units = units.units.keys.sorted().map { id in
            let jobs = units.units[id]!.compactMap { graph.job($0) }
            let cacheKeys = jobs.compactMap { job in job.caching.map { $0.cacheKey(for: job) } }
            var seen = Set<String>()
            let reads = jobs.flatMap(\.reads).compactMap { path -> String? in
                guard path.hasPrefix(prefix) else { return nil }
                let relative = String(path.dropFirst(prefix.count))
                return seen.insert(relative).inserted ? relative : nil
            }
            return Unit(id: id, cacheKeys: cacheKeys, reads: reads, subject: jobs.first?.subject ?? id.hex)
        }
    }
}
