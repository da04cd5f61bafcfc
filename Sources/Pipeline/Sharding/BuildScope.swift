import JobEngine
import TesseraCore

/// What part of the plan a run builds: all of it, one shard's work units (and the partial
/// manifest that says which), or all of it after checking the shards a merge joins cover it.
enum BuildScope {
    /// Narrows `plan` to `request`'s shard and returns the shard's partial manifest (not yet
    /// successful); checks a merge's partials against the plan; leaves a whole build as it is.
    static func apply(to plan: inout BuildPlanner.Plan, for request: BuildRequest) throws(TesseraError) -> PartialManifest? {
        let pipelineFile: String, shard: Shard
        switch request.mode {
        case .whole:
            return nil
        case .merge(let partials):
            try MergeRunner.checkCoverage(partials, units: WorkUnits(graph: plan.graph, definition: request.definition))
            return nil
        case .units(let wanted):
            let units = WorkUnits(graph: plan.graph, definition: request.definition)
            // A worker that plans other units (another input, another build) says so.
            if let unknown = wanted.sorted().first(where: { units.units[$0] == nil }) {
                throw TesseraError(.configuration, file: request.inputFolder, origin: .plan,
                                   reason: "work unit \(unknown.hex) is not in this plan: the input or the build differs from the one that sent it")
            }
            plan.graph = plan.graph.restricted(to: Set(wanted.flatMap { units.units[$0] ?? [] }))
            // The other assets' problems (their files were not shipped) are not this run's.
            plan.problems = []
            return nil
        case .shard(let one, let file):
            (shard, pipelineFile) = (one, file)
        }
        let units = WorkUnits(graph: plan.graph, definition: request.definition)
        let (graph, owned) = units.graph(for: shard, from: plan.graph)
        plan.graph = graph
        return PartialManifest(pipelineFile: pipelineFile, inputFolder: request.inputFolder,
                               planHash: units.planHash, shard: shard.index, shards: shard.count,
                               units: owned, succeeded: false)
    }
}
