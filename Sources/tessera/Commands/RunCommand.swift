import ArgumentParser
import BuildCache
import BuildOptions
import Foundation
import JobEngine
import Pipeline
import RemoteExecution
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

    @OptionGroup var execution: BuildExecution

    @Flag(help: "Write into a non-empty OUTPUT that no Tessera build wrote (nothing of its own is removed).")
    var force = false

    @OptionGroup(title: "Cache")
    var cache: CacheOptions

    @OptionGroup(title: "Remote execution")
    var remote: ExecutorOptions

    @Option(name: OptionTable.Report.against.long, help: ArgumentHelp(
        "A previous build (its folder, its manifest.json, a URL to one, or a tessera serve channel's URL): the report stage compares with it, and CI annotations name only files added or changed since (docs/ci.md).",
        valueName: "build"))
    var against: String?

    @Option(help: ArgumentHelp(
        "Build only part I of N of the work (1-based) into the cache and OUTPUT/shard-I-of-N.json; join the parts with `tessera merge`. `auto` reads the CI's parallel-job variables (Buildkite, GitLab, CircleCI).",
        valueName: "I/N|auto"), transform: Shard.argument)
    var shard: Shard?

    /// A remote executor's worker: only the work units listed in this file (one id a line), into
    /// the cache, which the action hands back (`RemoteExecution`). Not for people.
    @Option(help: .hidden)
    var units: String?

    func validate() throws {
        try cache.checkServer(remote.remoteExecutor)
        if units != nil, shard != nil || cache.noCache || remote.remoteExecutor != nil {
            throw ValidationError("--units needs a cache, and no --shard or --remote-executor")
        }
        if remote.remoteExecutor != nil, cache.noCache {
            throw ValidationError("--remote-executor needs a cache to take the actions' results into; drop --no-cache")
        }
        if shard != nil, cache.noCache {
            throw ValidationError("--shard needs a cache to hand its results to the merge; drop --no-cache")
        }
    }

    func run() async throws {
        if units != nil, let expected = ProcessInfo.processInfo.environment[WorkerIdentity.variable],
           expected != WorkerIdentity.current {
            printError("error: this worker is \(WorkerIdentity.current); the build that sent the action is \(expected)")
            throw ExitCode(WorkerIdentity.mismatchExit)
        }
        var definition: PipelineDefinition
        let buildCache: BuildCache?
        let executor: RemoteExecutor?
        do {
            var warnings: [String] = []
            definition = try PipelineFileReader.read(path: pipeline, warnings: &warnings)
            for warning in warnings { printError("warning: \(warning)") }
            // As on the command line of `tessera report`, `--against` wins over the file's `against:`.
            if let against, definition.report != nil { definition.report?.against = against }
            try RunFolders.check(input: input, output: output)
            buildCache = try cache.open(defaultRemote: remote.remoteExecutor)
            executor = try remote.executor(cache: cache, buildCache: buildCache, pipeline: pipeline, input: input,
                                           scheduler: execution.scheduler)
        } catch {
            throw fail(error)
        }
        var request = BuildRequest(definition: definition, inputFolder: input, outputFolder: output,
                                   scheduler: execution.scheduler, cache: buildCache, fileHashing: buildCache,
                                   mode: try mode(), force: force, remoteWork: executor)
        let previous = against ?? definition.report?.against
        if let previous, units == nil, shard == nil {
            // Read before the build writes anything: PREVIOUS may be this very output folder.
            // Without it the build still succeeds; devices then fetch the whole manifest.
            do {
                request.previous = try PreviousManifests.load(previous)
            } catch {
                printError("warning: no manifest patches: \(error.file.map { "\($0): " } ?? "")\(error.reason)")
            }
        }
        let scope = { [input] (outcome: BuildOutcome) in
            AnnotationScope.against(previous, input: input, files: outcome.report.problemFiles)
        }
        HeapTrimming.start()
        let outcome = try await execution.execute(output: output, annotating: scope) { (cancellation, display) throws(TesseraError) in
            try await PipelineRunner.run(request, cancellation: cancellation, observer: display)
        }
        summarise(outcome)
        if let executor { print("  remote:   \(RemoteSummary.line(executor.summary))") }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }

    private func mode() throws -> BuildMode {
        if let units {
            guard let text = try? String(contentsOfFile: units, encoding: .utf8) else {
                throw fail(TesseraError(.io, file: units, reason: "cannot read the list of work units"))
            }
            var ids = Set<ContentHash>()
            for line in text.split(whereSeparator: \.isNewline) {
                guard let id = ContentHash(hex: String(line)) else {
                    throw fail(TesseraError(.configuration, file: units, reason: "'\(line)' is not a work unit's id"))
                }
                ids.insert(id)
            }
            return .units(ids)
        }
        return shard.map { .shard($0, pipelineFile: pipeline) } ?? .whole
    }

    private func summarise(_ outcome: BuildOutcome) {
        if outcome.run.wasCancelled { return }
        if units != nil {
            print("Built \(outcome.run.outcomes.count) jobs of the listed work units into the cache")
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
