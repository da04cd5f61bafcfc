import TesseraCore

/// The entries a run takes from result packs for the jobs the local cache lacks, and the
/// server's packs whose segments can bring those entries' blobs.
struct TakenEntries {
    /// The jobs whose entries the local cache lacks.
    let missing: Set<ContentHash>
    private(set) var entries: [ContentHash: ActionEntry] = [:]
    /// Packs read from the server, in the order they were taken.
    private(set) var packs: [ResultPack] = []

    init(missing: Set<ContentHash>) {
        self.missing = missing
    }

    /// Whether every missing entry was taken.
    var isComplete: Bool { entries.count == missing.count }

    /// Takes `pack`'s missing entries not taken yet (the first pack that holds one gives it); a
    /// pack `fromServer` is kept for its segments (a local pack's blobs are in the store already).
    mutating func take(_ pack: ResultPack, fromServer: Bool) {
        if fromServer { packs.append(pack) }
        for result in pack.results where missing.contains(result.key) && entries[result.key] == nil {
            entries[result.key] = result.entry
        }
    }
}
