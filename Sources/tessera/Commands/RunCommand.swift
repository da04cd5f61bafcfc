import ArgumentParser
import BuildCache
import Foundation
import JobEngine
import Pipeline
import TesseraCore

/// `tessera run PIPELINE --input DIR --output DIR`: builds every asset under DIR.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline over every image under an input folder.",
        discussion: """
        Writes the variants under OUTPUT/variants/, then OUTPUT/manifest.json (everything built) and \
        OUTPUT/report.json (failures and warnings). A bad image fails only its own variants; the run \
        goes on and exits 1 at the end.
        """)

    @Argument(help: "The pipeline file (YAML), or a built-in pipeline's name: app-thinning, android (`tessera init NAME` writes one to edit).")
    var pipeline: String

    @Option(name: .shortAndLong, help: "The folder of source images.")
    var input: String

    @Option(name: .shortAndLong, help: "The folder to write variants, manifest and report into.")
    var output: String

    // Optional so that the help shows the one default in words, not this machine's core count too.
    @Option(name: .shortAndLong, help: "Run at most this many jobs at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Keep the estimated memory of running jobs and held results within this size, e.g. 512MB, 2GiB.")
    var memoryBudget: ByteCount = .gibibyte

    @Option(help: "Progress display: auto (a live line on a terminal, log lines otherwise), plain, json (one object per event on stderr) or quiet (nothing until the summary).")
    var progress: ProgressStyle = .auto

    @Flag(help: "Stop at the first failure instead of building everything else.")
    var failFast = false

    @Flag(help: "Write into a non-empty OUTPUT that no Tessera build wrote (nothing of its own is removed).")
    var force = false

    @Flag(help: "Print every warning on its own line (by default a kind that repeats is one line with a count).")
    var verbose = false

    @OptionGroup(title: "Cache")
    var cache: CacheOptions

    @Option(help: ArgumentHelp(
        "Build only part I of N of the work (1-based) into the cache and OUTPUT/shard-I-of-N.json; join the parts with `tessera merge`. `auto` reads the CI's parallel-job variables (Buildkite, GitLab, CircleCI).",
        valueName: "I/N|auto"), transform: Shard.argument)
    var shard: Shard?

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard memoryBudget.bytes > 0 else { throw ValidationError("--memory-budget must be more than 0") }
        if shard != nil, cache.noCache {
            throw ValidationError("--shard needs a cache to hand its results to the merge; drop --no-cache")
        }
    }

    func run() async throws {
        let definition: PipelineDefinition
        let buildCache: BuildCache?
        do {
            var warnings: [String] = []
            definition = try PipelineFileReader.read(path: pipeline, warnings: &warnings)
            for warning in warnings { printError("warning: \(warning)") }
            try RunFolders.check(input: input, output: output)
            buildCache = try cache.open()
        } catch {
            throw fail(error)
        }
        let request = BuildRequest(definition: definition, inputFolder: input, outputFolder: output,
                                   scheduler: SchedulerOptions(
                                       maxConcurrentJobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                       memoryBudget: memoryBudget.bytes, failFast: failFast),
                                   cache: buildCache, fileHashing: buildCache)
        var sharded = request
        sharded.shard = shard
        sharded.pipelineFile = pipeline
        sharded.force = force
        let cancellation = CancellationSource()
        let interrupts = InterruptHandler(cancellation: cancellation)
        defer { withExtendedLifetime(interrupts) {} }
        let display = progress.makeDisplay()
        let outcome: BuildOutcome
        do {
            outcome = try await PipelineRunner.run(sharded, cancellation: cancellation, observer: display)
        } catch {
            display.finish()
            throw fail(error)
        }
        display.finish()
        summarise(outcome, display: display)
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }

    private func summarise(_ outcome: BuildOutcome, display: any ProgressDisplay) {
        if display is JSONProgress {
            for problem in outcome.report.warnings + outcome.report.failures { display.report(problem) }
        } else {
            let lines = ProblemSummary.lines(warnings: outcome.report.warnings, failures: outcome.report.failures, verbose: verbose)
            for line in lines { printError(line) }
        }
        CIAnnotations.emit(outcome.report.failures + outcome.report.warnings, output: output)
        if outcome.run.wasCancelled {
            printError("interrupted: \(outcome.report.variantsWritten) variant files were complete; no partial file was left behind")
            return
        }
        if let shard {
            print("Built shard \(shard) into \(output)/ and the cache")
            print("  partial:  \(output)/\(PartialManifest.fileName(shard))")
            if let counts = outcome.report.cache { print("  cache:    \(CacheSummary.line(counts))") }
            return
        }
        let assets = outcome.assetCount
        print("Built \(outcome.report.variantsWritten) of \(outcome.report.variantsPlanned) variants of \(assets) assets into \(output)/")
        if outcome.hasManifest { print("  manifest: \(outcome.manifestPath)") }
        print("  report:   \(outcome.reportPath)")
        let slowest = outcome.report.slowestStages.prefix(5).map { "\($0.stage) \(Int(($0.share * 100).rounded()))%" }
        if !slowest.isEmpty {
            print("  time:     \(String(format: "%.1f", outcome.report.wallSeconds)) s; job time by stage: \(slowest.joined(separator: ", "))")
        }
        if let counts = outcome.report.cache {
            print("  cache:    \(CacheSummary.line(counts))")
        }
        if !outcome.report.failures.isEmpty {
            print("\(outcome.report.failures.count) failed; see the errors above or the report")
        }
    }
}

extension Shard {
    /// `--shard I/N` or `--shard auto`, parsed once; the reason becomes ArgumentParser's usage error.
    @Sendable static func argument(_ text: String) throws -> Shard {
        do throws(TesseraError) {
            return text == "auto" ? try Shard(environment: ProcessInfo.processInfo.environment) : try Shard(parsing: text)
        } catch {
            throw ValidationError(error.reason)
        }
    }
}
