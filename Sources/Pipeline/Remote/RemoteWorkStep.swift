import JobEngine
import TesseraCore

/// The phase between scope and run: the planned (or shard's) work units offered to the request's
/// remote executor, whose results the run then restores from the cache.
enum RemoteWorkStep {
    static func run(_ request: BuildRequest, plan: BuildPlanner.Plan, cancellation: CancellationSource) async -> [BuildProblem] {
        guard let remote = request.remoteWork else { return [] }
        // A worker's own run (`BuildMode.units`) never hands work on again.
        if case .units = request.mode { return [] }
        let units = WorkUnits(graph: plan.graph, definition: request.definition)
        let order = RemoteWorkOrder(graph: plan.graph, units: units, sourceGroups: plan.sourceGroups,
                                    inputFolder: request.inputFolder, outputFolder: request.outputFolder)
        return await remote.perform(order, cancellation: cancellation).map {
            BuildProblem(severity: .warning, file: request.outputFolder, stage: .execute, reason: $0)
        }
    }
}
