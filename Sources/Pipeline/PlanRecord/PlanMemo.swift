import Foundation
import JobEngine
import Manifests
import TesseraCore

/// The plan-record phase of a whole build (no shard, no merge): before planning, looks up the
/// record of these very inputs and, when the cache holds it, restores the build from it without
/// planning; after a successful build, keeps the record for the next run.
struct PlanMemo {
    let key: ContentHash
    let cache: any JobCache

    /// The memo for `request`; nil for a shard, a merge, a run without a cache, or inputs that
    /// cannot be keyed (no build ID, an unreadable tree).
    static func lookUp(_ request: BuildRequest) -> PlanMemo? {
        guard let cache = request.cache, case .whole = request.mode else { return nil }
        let tree = InputTree(root: request.inputFolder, excluding: request.outputFolder, hashing: request.fileHashing)
        if let tree { cache.useSources(tree.files) }
        return PlanRecord.key(for: request, tree: tree).map { PlanMemo(key: $0, cache: cache) }
    }

    /// The build restored from the record, checked and reported like a built one; nil when there
    /// is no record or one of its entries is gone (the build is then planned as usual).
    func restore(_ request: BuildRequest, leftovers: [BuildProblem], started: ContinuousClock.Instant) async throws(TesseraError) -> BuildOutcome? {
        guard let record = cache.record(key).flatMap(PlanRecord.parse),
              var counts = await record.jobs.restore(from: cache, into: request.outputFolder) else { return nil }
        await cache.finishRun()
        counts[JobKind.plan, default: CacheCounts()].hits += 1
        let manifestPath = "\(request.outputFolder)/\(request.definition.manifest.file)"
        // Restored files are checked like built ones: a cache entry may name other bytes.
        let inconsistent = OutputConsistency.check(try OutputConsistency.listed(inManifestAt: manifestPath),
                                                   outputFolder: request.outputFolder, hashing: request.fileHashing)
        var report = BuildReport(pipeline: request.definition.name, succeeded: inconsistent.isEmpty, cancelled: false,
                                 variantsWritten: record.variantsWritten, variantsPlanned: record.variantsPlanned,
                                 failures: inconsistent,
                                 warnings: Array(Set(record.warnings(for: request) + leftovers + request.cacheWarnings)).sorted(),
                                 wallSeconds: BuildClock.seconds(since: started), cache: counts)
        report.problemFiles = ProblemFiles.fingerprints(of: report.failures + report.warnings, input: request.inputFolder)
        let reportPath = "\(request.outputFolder)/report.json"
        if request.definition.report != nil {
            // A restored build is measured and budgeted like a built one.
            report.overBudget = try SizeReportStep.run(request, manifest: try ManifestWriter.read(from: manifestPath),
                                                       problems: report.warnings)
        }
        try report.write(to: reportPath)
        try UpdateFilesStep.run(manifestAt: manifestPath, previous: request.previous)
        OutputInventory.finish(request.outputFolder, produced: OutputLedger.close(request.outputFolder))
        return BuildOutcome(report: report, record: record, manifestPath: manifestPath, reportPath: reportPath,
                            run: .restored(cache: counts))
    }

    /// Keeps the record of a successful build whose every job can be cached (`jobs`, nil when one
    /// cannot: `CacheableJobs` of the planned graph).
    func keep(_ jobs: CacheableJobs?, report: BuildReport, assets: Int, buildWarnings: [BuildProblem], of request: BuildRequest) {
        guard report.succeeded, let jobs else { return }
        let record = PlanRecord(jobs: jobs, variantsPlanned: report.variantsPlanned, variantsWritten: report.variantsWritten,
                                assets: assets, warnings: PlanRecord.portable(Array(Set(buildWarnings)).sorted(), of: request))
        if let bytes = try? record.serialised() { cache.storeRecord(bytes, as: key) }
    }
}
