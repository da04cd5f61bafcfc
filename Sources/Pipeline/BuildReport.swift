import Foundation
import JobEngine
import SizeReporting
import TesseraCore

/// `report.json`: how the build went, for CI to read: failures, warnings, and where the time went.
public struct BuildReport: Sendable, Codable, Equatable {
    public var pipeline: String
    public var succeeded: Bool
    public var cancelled: Bool
    /// Variant files written (and listed in the manifest).
    public var variantsWritten: Int
    /// Variant files planned.
    public var variantsPlanned: Int
    public var failures: [BuildProblem]
    public var warnings: [BuildProblem]
    /// Wall, job and CPU seconds and job counts per stage: the one part of the report that
    /// differs between identical runs.
    public var stages: [JobKind: StageTiming] = [:]
    /// Wall seconds of the whole run.
    public var wallSeconds: Double = 0
    /// Cache hits, misses and avoided jobs per stage; absent when the run had no cache.
    public var cache: [JobKind: CacheCounts]? = nil
    /// With a report stage: every size budget the build went over (empty: within all of them);
    /// absent without one (`docs/size-report.md`).
    public var overBudget: [BudgetViolation]? = nil
    /// Each file a problem names, inside the input folder, with its SHA-256 (`ProblemFiles`): what
    /// a later build's `--against` compares to annotate only what a change touched.
    public var problemFiles: [String: String]? = nil

    /// Stages by their share of all job time, largest first (`encode 41%`), as the run's summary prints them.
    public var slowestStages: [(stage: JobKind, share: Double)] {
        let total = stages.values.reduce(0) { $0 + $1.jobSeconds }
        guard total > 0 else { return [] }
        return stages.map { ($0.key, $0.value.jobSeconds / total) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
    }

    /// The report at `path`; nil when there is none or it cannot be read (a size report then
    /// says the build's problems are unknown rather than that there were none).
    public static func read(from path: String) -> BuildReport? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BuildReport.self, from: data)
    }

    func write(to path: String) throws(TesseraError) {
        try AtomicFile.write(try StableJSON.encode(self), to: path)
    }
}
