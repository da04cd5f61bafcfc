import Delivery
import Foundation
import JobEngine
import Manifests
import SizeReporting
import TesseraCore

/// What to build: a pipeline, an input folder, an output folder, and the scheduler's limits.
public struct BuildRequest: Sendable {
    public var definition: PipelineDefinition
    public var inputFolder: String
    public var outputFolder: String
    public var scheduler: SchedulerOptions
    /// Job results are looked up here before running and stored after; nil rebuilds everything.
    public var cache: (any JobCache)?
    /// How sources are hashed while planning (a cache's fingerprint index, or every byte every time).
    public var fileHashing: any FileHashing
    /// Build only this shard's work units and write a `PartialManifest` (needs a cache to hand
    /// the results to the merge).
    public var shard: Shard?
    /// The pipeline file as given, recorded in a shard's partial manifest for the merge.
    public var pipelineFile: String?
    /// Set by `MergeRunner`: the shards' partial manifests, checked against this plan before it runs.
    var mergedPartials: [(path: String, partial: PartialManifest)] = []
    /// Write into a non-empty output folder no Tessera build wrote (`--force`); nothing of its own
    /// is removed.
    public var force = false

    public init(definition: PipelineDefinition, inputFolder: String, outputFolder: String,
                scheduler: SchedulerOptions = SchedulerOptions(), cache: (any JobCache)? = nil,
                fileHashing: (any FileHashing)? = nil) {
        self.cache = cache
        self.fileHashing = fileHashing ?? DirectFileHashing()
        self.definition = definition
        self.inputFolder = Self.trimmed(inputFolder)
        self.outputFolder = Self.trimmed(outputFolder)
        self.scheduler = scheduler
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// How a build went.
public struct BuildOutcome: Sendable {
    public let report: BuildReport
    public let manifestPath: String
    public let reportPath: String
    public let run: RunReport
    /// Assets in the manifest (0 without one).
    public let assetCount: Int
    /// Whether a manifest was written.
    public let hasManifest: Bool
    private let manifestSource: ManifestSource

    /// The manifest built; after a run restored from a plan record, read from its file on each use.
    public var manifest: Manifest? {
        switch manifestSource {
        case .built(let manifest): manifest
        case .file(let path): (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap { try? Manifest.decode($0, source: path) }
        }
    }

    private enum ManifestSource: Sendable {
        case built(Manifest?)
        case file(String)
    }

    init(report: BuildReport, manifest: Manifest?, manifestPath: String, reportPath: String, run: RunReport) {
        self.report = report
        self.manifestPath = manifestPath
        self.reportPath = reportPath
        self.run = run
        assetCount = manifest?.assets.count ?? 0
        hasManifest = manifest != nil
        manifestSource = .built(manifest)
    }

    init(report: BuildReport, record: PlanRecord, manifestPath: String, reportPath: String, run: RunReport) {
        self.report = report
        self.manifestPath = manifestPath
        self.reportPath = reportPath
        self.run = run
        assetCount = record.assets
        hasManifest = true
        manifestSource = .file(manifestPath)
    }

    /// 0 success, 1 any failure, 3 built but over a size budget, 130 interrupted.
    public var exitStatus: Int32 {
        if run.wasCancelled && report.failures.isEmpty { return 130 }
        guard report.succeeded else { return 1 }
        return (report.overBudget ?? []).isEmpty ? 0 : 3
    }
}

/// Runs a pipeline over an input folder: plans the job graph, runs it on the shared scheduler and
/// writes the manifest and the build report.
public enum PipelineRunner {
    public static func run(_ request: BuildRequest, cancellation: CancellationSource = CancellationSource(),
                           observer: (any SchedulerObserver)? = nil) async throws(TesseraError) -> BuildOutcome {
        let planner = BuildPlanner(definition: request.definition, inputFolder: request.inputFolder,
                                   outputFolder: request.outputFolder, hashing: request.fileHashing)
        let clock = ContinuousClock()
        let started = clock.now
        try OutputInventory.checkUsable(request.outputFolder, force: request.force)
        // What this build puts in the folder is recorded from here on (`OutputInventory`).
        OutputLedger.open(request.outputFolder)
        defer { _ = OutputLedger.close(request.outputFolder) }
        // Temporary files a killed run left behind go first, so they never pile up or get packed.
        let leftovers = RunFolders.removeLeftovers(output: request.outputFolder).map {
            BuildProblem(severity: .warning, file: $0, stage: .run, reason: "removed a temporary file an interrupted run left")
        }
        // A whole build (no shard, no merge) may have been planned before with these very inputs.
        var recordKey: ContentHash?
        if let cache = request.cache, request.shard == nil, request.mergedPartials.isEmpty {
            let tree = InputTree(root: request.inputFolder, excluding: request.outputFolder, hashing: request.fileHashing)
            if let tree { cache.useSources(tree.files) }
            recordKey = PlanRecord.key(for: request, tree: tree)
            if let recordKey, let record = cache.record(recordKey).flatMap(PlanRecord.parse),
               var counts = await record.jobs.restore(from: cache, into: request.outputFolder) {
                await cache.finishRun()
                counts[StageName.plan, default: CacheCounts()].hits += 1
                let outcome = try restored(request, record: record, counts: counts, extraWarnings: leftovers,
                                           wallSeconds: Self.seconds(started.duration(to: clock.now)))
                OutputInventory.finish(request.outputFolder, produced: OutputLedger.close(request.outputFolder))
                return outcome
            }
        }
        var plan = try planner.plan()
        var partial: PartialManifest?
        if request.shard != nil || !request.mergedPartials.isEmpty {
            let units = WorkUnits(graph: plan.graph, definition: request.definition)
            if let shard = request.shard {
                let (graph, owned) = units.graph(for: shard, from: plan.graph)
                plan.graph = graph
                partial = PartialManifest(pipelineFile: request.pipelineFile ?? "", inputFolder: request.inputFolder,
                                          planHash: units.planHash, shard: shard.index, shards: shard.count,
                                          units: owned, succeeded: false)
            } else {
                try MergeRunner.checkCoverage(request.mergedPartials, units: units)
            }
        }
        var run = try await Scheduler(options: request.scheduler).run(plan.graph, cancellation: cancellation,
                                                                      observer: observer, cache: request.cache)
        if recordKey != nil { run.cache[StageName.plan, default: CacheCounts()].misses += 1 }
        let published = run.value(of: plan.publish)
        let manifest = published?.manifest
        var failures = plan.problems.filter { $0.severity == .error }
        failures += run.failures.map {
            let error = $0.error
            return BuildProblem(severity: .error, file: error.file ?? $0.job.subject,
                                stage: error.stage ?? $0.job.stage, reason: error.reason)
        }
        if let manifest, !run.wasCancelled, request.shard == nil {
            failures += OutputConsistency.check(manifest, outputFolder: request.outputFolder, hashing: request.fileHashing)
        }
        // The build's own warnings, which a plan record keeps; then this run's.
        var buildWarnings = plan.problems.filter { $0.severity == .warning }
        buildWarnings += (published?.warnings ?? []).map {
            BuildProblem(severity: .warning, file: request.outputFolder, stage: .pack, reason: $0)
        }
        buildWarnings += (published?.sourceWarnings ?? []).map {
            BuildProblem(severity: .warning, file: "\(request.inputFolder)/\($0.source)", stage: $0.note.stage,
                         reason: $0.note.text)
        }
        let written = manifest?.assets.reduce(0) { $0 + $1.variants.count } ?? 0
        var report = BuildReport(pipeline: request.definition.name,
                                 succeeded: failures.isEmpty && run.isSuccess, cancelled: run.wasCancelled,
                                 variantsWritten: written, variantsPlanned: plan.variantCount,
                                 failures: Array(Set(failures)).sorted(),
                                 warnings: Array(Set(buildWarnings + leftovers + cacheWarnings(request))).sorted(),
                                 stages: run.stageTimings, wallSeconds: Self.seconds(started.duration(to: clock.now)),
                                 cache: request.cache == nil ? nil : run.cache)
        let reportPath = "\(request.outputFolder)/report.json"
        if let manifest, !run.wasCancelled, request.shard == nil {
            report.overBudget = try sizeReport(request, manifest: manifest, problems: report.failures + report.warnings)
        }
        if !run.wasCancelled { try report.write(to: reportPath) }
        if var partial, let shard = request.shard, !run.wasCancelled {
            // A shard runs no manifest job, which flushes the unflushed variant files elsewhere.
            partial.succeeded = report.succeeded && FileSystemFlush.flush(containing: request.outputFolder)
            try partial.write(to: "\(request.outputFolder)/\(PartialManifest.fileName(shard))")
        }
        if let recordKey, let cache = request.cache, report.succeeded,
           let jobs = CacheableJobs(plan.graph, root: request.outputFolder) {
            let record = PlanRecord(jobs: jobs, variantsPlanned: report.variantsPlanned, variantsWritten: written,
                                    assets: manifest?.assets.count ?? 0,
                                    warnings: PlanRecord.portable(Array(Set(buildWarnings)).sorted(), of: request))
            if let bytes = try? record.serialised() { cache.storeRecord(bytes, as: recordKey) }
        }
        // The folder now holds this build: what an earlier one left and this one did not make goes.
        // A cancelled run and a shard (a part of a build) leave the folder as it is; a merge is a
        // whole build.
        let produced = OutputLedger.close(request.outputFolder)
        if !run.wasCancelled, request.shard == nil {
            OutputInventory.finish(request.outputFolder, produced: produced)
        }
        // An interrupted run has no manifest to count from: its complete variant files are the
        // ones it put in place (written or restored) before it stopped.
        if run.wasCancelled { report.variantsWritten = produced.filter { $0.hasPrefix("variants/") }.count }
        return BuildOutcome(report: report, manifest: manifest,
                            manifestPath: "\(request.outputFolder)/\(request.definition.manifest.file)",
                            reportPath: reportPath, run: run)
    }

    /// The outcome of a run whose every file a plan record's jobs restored.
    private static func restored(_ request: BuildRequest, record: PlanRecord, counts: [StageName: CacheCounts],
                                 extraWarnings: [BuildProblem], wallSeconds: Double) throws(TesseraError) -> BuildOutcome {
        let manifestPath = "\(request.outputFolder)/\(request.definition.manifest.file)"
        // Restored files are checked like built ones: a cache entry may name other bytes.
        let inconsistent = OutputConsistency.check(try OutputConsistency.listed(inManifestAt: manifestPath),
                                                   outputFolder: request.outputFolder, hashing: request.fileHashing)
        var report = BuildReport(pipeline: request.definition.name, succeeded: inconsistent.isEmpty, cancelled: false,
                                 variantsWritten: record.variantsWritten, variantsPlanned: record.variantsPlanned,
                                 failures: inconsistent,
                                 warnings: Array(Set(record.warnings(for: request) + extraWarnings + cacheWarnings(request))).sorted(),
                                 wallSeconds: wallSeconds, cache: counts)
        let reportPath = "\(request.outputFolder)/report.json"
        if request.definition.report != nil {
            // A restored build is measured and budgeted like a built one.
            report.overBudget = try sizeReport(request, manifest: try ManifestWriter.read(from: manifestPath),
                                               problems: report.warnings)
        }
        try report.write(to: reportPath)
        return BuildOutcome(report: report, record: record,
                            manifestPath: "\(request.outputFolder)/\(request.definition.manifest.file)",
                            reportPath: reportPath, run: .restored(cache: counts))
    }

    /// With a report stage: writes the size report beside the manifest (and appends its summary to
    /// `$GITHUB_STEP_SUMMARY` when set) and returns what went over budget; nil without one.
    private static func sizeReport(_ request: BuildRequest, manifest: Manifest,
                                   problems: [BuildProblem]) throws(TesseraError) -> [BudgetViolation]? {
        guard let options = request.definition.report else { return nil }
        let previous = try options.against.map { location throws(TesseraError) in try ReportedBuildLoader.load(location) }
        try options.budget.check(against: manifest, hasPrevious: previous != nil, option: "report: max-tag")
        let report = SizeReport.make(manifest, previous: previous?.manifest)
        let violations = options.budget.violations(in: report, of: manifest, previous: previous.map { SizeReport.make($0.manifest) })
        let page = SizeReportFiles.PageInputs(problems: problems.map(\.reportProblem),
                                              current: ReportedBuild(manifest: manifest, folder: request.outputFolder),
                                              previous: previous, thumbnails: VariantThumbnails())
        try SizeReportFiles.write(report, violations: violations, page: page, to: request.outputFolder,
                                  stepSummary: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"])
        return violations
    }

    private static func cacheWarnings(_ request: BuildRequest) -> [BuildProblem] {
        (request.cache?.warnings ?? []).map {
            BuildProblem(severity: .warning, file: request.outputFolder, stage: .cache, reason: $0)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
