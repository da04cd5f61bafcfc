import JobEngine
import TesseraCore

/// `tessera merge`: joins the shards of one build. It checks that the partial manifests belong
/// together (one plan hash, one shard count, every shard once, all succeeded) and that their units
/// cover the plan exactly, then runs the whole pipeline through the cache: every unit's files
/// come from the cache the shards filled, and the bundles and manifests are made here.
public enum MergeRunner {
    public static func merge(partials paths: [String], outputFolder: String, scheduler: SchedulerOptions = SchedulerOptions(),
                             cache: any JobCache, fileHashing: (any FileHashing)? = nil,
                             cancellation: CancellationSource = CancellationSource(),
                             observer: (any SchedulerObserver)? = nil) async throws(TesseraError) -> BuildOutcome {
        guard !paths.isEmpty else { throw TesseraError(.configuration, reason: "merge needs the shards' partial manifests") }
        var partials: [(path: String, partial: PartialManifest)] = []
        for path in paths { partials.append((path, try PartialManifest.read(path))) }
        let first = partials[0]
        var byShard: [Int: String] = [:]
        for (path, partial) in partials {
            for (field, same) in [("plan hash", partial.planHash == first.partial.planHash),
                                  ("shard count", partial.shards == first.partial.shards),
                                  ("pipeline file", partial.pipelineFile == first.partial.pipelineFile),
                                  ("input folder", partial.inputFolder == first.partial.inputFolder)] where !same {
                throw TesseraError(.configuration, file: path,
                                   reason: "its \(field) differs from \(first.path)'s: the shards are not of one build")
            }
            if let other = byShard[partial.shard] {
                throw TesseraError(.configuration, file: path,
                                   reason: "shard \(partial.shard)/\(partial.shards) is given twice (also \(other))")
            }
            byShard[partial.shard] = path
            guard partial.succeeded else {
                throw TesseraError(.configuration, file: path,
                                   reason: "shard \(partial.shard)/\(partial.shards) did not succeed; rerun it first")
            }
        }
        let missing = (1...first.partial.shards).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            throw TesseraError(.configuration, reason: "shard\(missing.count == 1 ? "" : "s") "
                + missing.map { "\($0)/\(first.partial.shards)" }.joined(separator: ", ") + " missing from the partial manifests")
        }
        let definition = try PipelineFileReader.read(path: first.partial.pipelineFile)
        try RunFolders.check(input: first.partial.inputFolder, output: outputFolder)
        let request = BuildRequest(definition: definition, inputFolder: first.partial.inputFolder, outputFolder: outputFolder,
                                   scheduler: scheduler, cache: cache, fileHashing: fileHashing, mode: .merge(partials))
        return try await PipelineRunner.run(request, cancellation: cancellation, observer: observer)
    }

    /// Every unit of the plan is in exactly one partial, and no partial names a unit the plan lacks.
    static func checkCoverage(_ partials: [(path: String, partial: PartialManifest)], units: WorkUnits) throws(TesseraError) {
        if let stale = partials.first(where: { $0.partial.planHash != units.planHash }) {
            throw TesseraError(.configuration, file: stale.path,
                               reason: "the pipeline or the sources differ from those the shards built (another plan hash)")
        }
        var owner: [ContentHash: String] = [:]
        for (path, partial) in partials {
            for unit in partial.units {
                if let other = owner[unit] {
                    throw TesseraError(.configuration, file: path, reason: "work unit \(unit.hex.prefix(12)) is also in \(other)")
                }
                guard units.units[unit] != nil else {
                    throw TesseraError(.configuration, file: path, reason: "work unit \(unit.hex.prefix(12)) is not in this plan")
                }
                owner[unit] = path
            }
        }
        let uncovered = units.units.keys.filter { owner[$0] == nil }.sorted()
        guard uncovered.isEmpty else {
            throw TesseraError(.configuration, reason: "\(uncovered.count) work unit(s) were built by no shard "
                + "(first: \(uncovered[0].hex.prefix(12)))")
        }
    }
}
