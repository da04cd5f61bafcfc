import TesseraCore

/// Which part of a build a request makes: the phases read it, and only `BuildScope` and the
/// after-build steps act on it.
public enum BuildMode: Sendable {
    /// The whole build.
    case whole
    /// Only this shard's work units, written as a `PartialManifest` for the merge (needs a cache to
    /// hand the results on); `pipelineFile`, as given, is recorded in it for the merge to read.
    case shard(Shard, pipelineFile: String)
    /// The merge of the shards' partial manifests, checked against this plan before it runs.
    case merge([(path: String, partial: PartialManifest)])
    /// Only these work units (`WorkUnits`, by id), into the cache: what a remote executor's worker
    /// runs for one action (`RemoteWork`). No manifest, report or partial manifest; planning
    /// problems of assets outside the units are not this run's.
    case units(Set<ContentHash>)
}
