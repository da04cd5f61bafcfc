import JobEngine

/// The run summary's cache line: `812 hits, 12 misses, 2436 jobs avoided (write 800/10, bundle 12/2)`.
enum CacheSummary {
    static func line(_ counts: [String: CacheCounts]) -> String {
        let hits = counts.values.reduce(0) { $0 + $1.hits }
        let misses = counts.values.reduce(0) { $0 + $1.misses }
        let avoided = counts.values.reduce(0) { $0 + $1.avoided }
        let stages = counts.filter { $0.value.hits + $0.value.misses > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.hits)/\($0.value.misses)" }
        return "\(hits) hits, \(misses) misses, \(avoided) jobs avoided"
            + (stages.isEmpty ? "" : " (hits/misses: \(stages.joined(separator: ", ")))")
    }
}
