import JobEngine
import TesseraCore

/// The build split into work units a shard can do alone: the connected parts of the job graph
/// once the jobs that gather across assets (gather, slice, compress, bundle, manifest) are set
/// aside. An asset's decode, downscale, encodes and writes are one unit, so no shard repeats
/// another's decode; identical work shared by two assets joins them into one unit.
struct WorkUnits {
    /// Stages left to the merge: they read every unit's results. `app` too: what stays in the app
    /// is planned from every app icon set and the project's settings at once, and an in-app set
    /// is written from its variants (`AppCatalogStage`), so it joins no unit and a shard or a
    /// remote worker never plans it from part of the input.
    static let gatheringStages: Set<JobKind> = [.gather, .slice, .compress, .bundle, .object, .manifest, .app]

    /// Unit id (the smallest job key in it) → its jobs, in graph order.
    let units: [ContentHash: [JobKey]]
    /// A hash of every unit id and the pipeline: equal for shards and merge of one build.
    let planHash: ContentHash

    init(graph: JobGraph, definition: PipelineDefinition) {
        let keys = graph.keys.filter { !Self.gatheringStages.contains(graph.job($0)!.kind) }
        var parent: [JobKey: JobKey] = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) })
        func find(_ key: JobKey) -> JobKey {
            var root = key
            while parent[root]! != root { root = parent[root]! }
            var node = key
            while parent[node]! != root { (node, parent[node]) = (parent[node]!, root) }
            return root
        }
        for key in keys {
            for dependency in graph.job(key)!.dependencies where parent[dependency] != nil {
                let (a, b) = (find(key), find(dependency))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var members: [JobKey: [JobKey]] = [:]
        for key in keys { members[find(key), default: []].append(key) }
        var units: [ContentHash: [JobKey]] = [:]
        for jobs in members.values { units[jobs.min()!.hash] = jobs }
        self.units = units
        var hasher = StableHasher()
        hasher.combine("tessera.shards.v1")
        hasher.combine(bytes: definition.fingerprint)
        hasher.combine(units.count)
        for id in units.keys.sorted() { hasher.combine(id) }
        planHash = hasher.finalize()
    }

    /// The jobs of the units `shard` owns, nothing else.
    func graph(for shard: Shard, from graph: JobGraph) -> (JobGraph, [ContentHash]) {
        let owned = units.keys.filter(shard.owns).sorted()
        let keep = Set(owned.flatMap { units[$0]! })
        return (graph.restricted(to: keep), owned)
    }
}
