import JobEngine
import TesseraCore

/// The run summary's cache line: `812 hits, 12 misses, 2436 jobs avoided (hits/misses: bundle 12/2,
/// plan 0/1, write 800/10)`. The totals count jobs; the plan record (`plan`) is listed, not counted.
enum CacheSummary {
    static func line(_ counts: [JobKind: CacheCounts]) -> String {
        let jobs = counts.filter { $0.key != .plan }.values
        let hits = jobs.reduce(0) { $0 + $1.hits }
        let misses = jobs.reduce(0) { $0 + $1.misses }
        let avoided = jobs.reduce(0) { $0 + $1.avoided }
        let stages = counts.filter { $0.value.hits + $0.value.misses > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.hits)/\($0.value.misses)" }
        return "\(hits) hits, \(misses) misses, \(avoided) jobs avoided"
            + (stages.isEmpty ? "" : " (hits/misses: \(stages.joined(separator: ", ")))")
    }
}
