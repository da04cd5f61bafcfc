import Delivery
import Foundation
import JobEngine
import TesseraCore

/// What to build: a pipeline, an input folder, an output folder, the scheduler's limits, and
/// which part of the build (`mode`). Made once, whole, and never changed by the phases that read it.
public struct BuildRequest: Sendable {
    public let definition: PipelineDefinition
    public let inputFolder: String
    public let outputFolder: String
    public let scheduler: SchedulerOptions
    /// Job results are looked up here before running and stored after; nil rebuilds everything.
    public let cache: (any JobCache)?
    /// How sources are hashed while planning (a cache's fingerprint index, or every byte every time).
    public let fileHashing: any FileHashing
    public let mode: BuildMode
    /// Write into a non-empty output folder no Tessera build wrote (`--force`); nothing of its own
    /// is removed.
    public let force: Bool
    /// Builds work units elsewhere before the run (`--remote-executor`); nil builds them here.
    public let remoteWork: (any RemoteWork)?
    /// The manifests devices may hold (`--against`): the build lists them as its predecessors
    /// and writes a patch from each (`UpdateFilesStep`); nil without `--against`.
    public var previous: PreviousManifests?

    public init(definition: PipelineDefinition, inputFolder: String, outputFolder: String,
                scheduler: SchedulerOptions = SchedulerOptions(), cache: (any JobCache)? = nil,
                fileHashing: (any FileHashing)? = nil, mode: BuildMode = .whole, force: Bool = false,
                remoteWork: (any RemoteWork)? = nil) {
        self.remoteWork = remoteWork
        self.cache = cache
        self.fileHashing = fileHashing ?? DirectFileHashing()
        self.definition = definition
        self.inputFolder = Self.trimmed(inputFolder)
        self.outputFolder = Self.trimmed(outputFolder)
        self.scheduler = scheduler
        self.mode = mode
        self.force = force
    }

    /// Whether the request builds only part of the plan (a shard, or a remote worker's units):
    /// then there is no manifest, size report or finished folder.
    public var buildsPart: Bool {
        switch mode {
        case .whole, .merge: false
        case .shard, .units: true
        }
    }

    /// The shard this request builds, if it builds one.
    public var shard: Shard? {
        if case .shard(let shard, _) = mode { return shard }
        return nil
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

/// Runs a pipeline over an input folder, in phases: check the output folder, restore from a plan
/// record (`PlanMemo`) or plan (`BuildPlanner`), narrow to a shard or check a merge (`BuildScope`),
/// run the job graph on the shared scheduler, gather the problems (`RunProblems`), then the
/// after-build steps: the size report, the build report, a shard's partial manifest, the plan
/// record, and the output folder made exactly this build (`OutputInventory`).
public enum PipelineRunner {
    public static func run(_ request: BuildRequest, cancellation: CancellationSource = CancellationSource(),
                           observer: (any SchedulerObserver)? = nil) async throws(TesseraError) -> BuildOutcome {
        let started = ContinuousClock.now
        try OutputInventory.checkUsable(request.outputFolder, force: request.force)
        // What this build puts in the folder is recorded from here on (`OutputInventory`).
        OutputLedger.open(request.outputFolder)
        defer { _ = OutputLedger.close(request.outputFolder) }
        // Temporary files a killed run left behind go first, so they never pile up or get packed.
        let leftovers = RunFolders.removeLeftovers(output: request.outputFolder).map {
            BuildProblem(severity: .warning, file: $0, stage: .run, reason: "removed a temporary file an interrupted run left")
        }
        let memo = PlanMemo.lookUp(request)
        if let memo, let outcome = try await memo.restore(request, leftovers: leftovers, started: started) {
            return outcome
        }
        var plan = try BuildPlanner(definition: request.definition, inputFolder: request.inputFolder,
                                    outputFolder: request.outputFolder, hashing: request.fileHashing,
                                    predecessors: request.previous?.references).plan()
        let partial = try BuildScope.apply(to: &plan, for: request)
        let remoteWarnings = await RemoteWorkStep.run(request, plan: plan, cancellation: cancellation)
        // What the plan record needs of the graph, taken before the scheduler gets the graph
        // itself: it lets go of each job's work as the job ends, so nothing here may hold it.
        let cacheable = memo == nil ? nil : CacheableJobs(plan.graph, root: request.outputFolder)
        var run = try await Scheduler(options: request.scheduler).run(plan.takeGraph(), cancellation: cancellation,
                                                                      observer: observer, cache: request.cache)
        if memo != nil { run.cache[JobKind.plan, default: CacheCounts()].misses += 1 }
        let written = run.value(of: plan.manifest)
        let manifest = written?.manifest
        let problems = RunProblems(request, plan: plan, run: run, written: written)
        var report = BuildReport(pipeline: request.definition.name,
                                 succeeded: problems.failures.isEmpty && run.isSuccess, cancelled: run.wasCancelled,
                                 variantsWritten: manifest?.assets.reduce(0) { $0 + $1.variants.count } ?? 0,
                                 variantsPlanned: plan.variantCount,
                                 failures: Array(Set(problems.failures)).sorted(),
                                 warnings: Array(Set(problems.buildWarnings + leftovers + request.cacheWarnings + remoteWarnings)).sorted(),
                                 stages: run.stageTimings, wallSeconds: BuildClock.seconds(since: started),
                                 cache: request.cache == nil ? nil : run.cache)
        report.problemFiles = ProblemFiles.fingerprints(of: report.failures + report.warnings, input: request.inputFolder)
        let reportPath = "\(request.outputFolder)/report.json"
        // The update files first: the size report's update cost reads the patch sizes they list.
        if manifest != nil, !run.wasCancelled, !request.buildsPart {
            try UpdateFilesStep.run(manifestAt: "\(request.outputFolder)/\(request.definition.manifest.file)", previous: request.previous)
        }
        if let manifest, !run.wasCancelled, !request.buildsPart {
            report.overBudget = try SizeReportStep.run(request, manifest: manifest, problems: report.failures + report.warnings)
        }
        if !run.wasCancelled { try report.write(to: reportPath) }
        if let partial, let shard = request.shard, !run.wasCancelled {
            try ShardManifestStep.run(partial, shard: shard, succeeded: report.succeeded, outputFolder: request.outputFolder)
        }
        memo?.keep(cacheable, report: report, assets: manifest?.assets.count ?? 0, buildWarnings: problems.buildWarnings, of: request)
        finishFolder(request, cancelled: run.wasCancelled, report: &report)
        return BuildOutcome(report: report, manifest: manifest,
                            manifestPath: "\(request.outputFolder)/\(request.definition.manifest.file)",
                            reportPath: reportPath, run: run)
    }
}

extension PipelineRunner {
    /// The folder now holds this build: what an earlier one left and this one did not make goes.
    /// A cancelled run and a shard (a part of a build) leave the folder as it is; a merge is a
    /// whole build. An interrupted run has no manifest to count from: its complete variant files
    /// are the ones it put in place (written or restored) before it stopped.
    static func finishFolder(_ request: BuildRequest, cancelled: Bool, report: inout BuildReport) {
        let produced = OutputLedger.close(request.outputFolder)
        if !cancelled, !request.buildsPart {
            OutputInventory.finish(request.outputFolder, produced: produced)
        }
        if cancelled { report.variantsWritten = produced.filter { $0.hasPrefix("variants/") }.count }
    }
}

extension BuildRequest {
    /// The cache's problems of this run (a remote that did not answer, say), as warnings.
    var cacheWarnings: [BuildProblem] {
        (cache?.warnings ?? []).map { BuildProblem(severity: .warning, file: outputFolder, stage: .cache, reason: $0) }
    }
}

/// A build's wall time.
enum BuildClock {
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (whole, attoseconds) = start.duration(to: .now).components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
