import JobEngine
import TesseraCore

/// What part of the plan a run builds: all of it, one shard's work units (and the partial
/// manifest that says which), or all of it after checking the shards a merge joins cover it.
enum BuildScope {
    /// Narrows `plan` to `request`'s shard and returns the shard's partial manifest (not yet
    /// successful); checks a merge's partials against the plan; leaves a whole build as it is.
    static func apply(to plan: inout BuildPlanner.Plan, for request: BuildRequest) throws(TesseraError) -> PartialManifest? {
        guard request.shard != nil || !request.mergedPartials.isEmpty else { return nil }
        let units = WorkUnits(graph: plan.graph, definition: request.definition)
        guard let shard = request.shard else {
            try MergeRunner.checkCoverage(request.mergedPartials, units: units)
            return nil
        }
        let (graph, owned) = units.graph(for: shard, from: plan.graph)
        plan.graph = graph
        return PartialManifest(pipelineFile: request.pipelineFile ?? "", inputFolder: request.inputFolder,
                               planHash: units.planHash, shard: shard.index, shards: shard.count,
                               units: owned, succeeded: false)
    }
}
