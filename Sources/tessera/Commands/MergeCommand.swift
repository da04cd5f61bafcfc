import ArgumentParser
import BuildCache
import Foundation
import JobEngine
import Pipeline
import TesseraCore

/// `tessera merge PARTIALS… --output DIR`: joins the shards of one build.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shards of a build (`tessera run --shard I/N`) into one output folder.",
        discussion: """
        Checks that the partial manifests are every shard of one build, exactly once, and that their \
        work units cover the plan; then takes every unit's files from the cache (local or remote) the \
        shards filled and writes the bundles and all manifests. Run it in the same checkout: it reads \
        the pipeline file and input folder the shards recorded.
        """)

    @Argument(help: "The shards' partial manifests (shard-I-of-N.json).")
    var partials: [String]

    @Option(name: .shortAndLong, help: "The folder to write the whole build into.")
    var output: String

    @OptionGroup var execution: BuildExecution

    @OptionGroup(title: "Cache")
    var cache: CacheOptions

    func validate() throws {
        guard !partials.isEmpty else { throw ValidationError("give the shards' partial manifests") }
        guard !cache.noCache else { throw ValidationError("merge takes the shards' results from the cache; drop --no-cache") }
        try cache.checkServer()
    }

    func run() async throws {
        let buildCache: BuildCache
        do {
            guard let opened = try cache.open() else { throw ValidationError("merge needs a cache") }
            buildCache = opened
        } catch let error as TesseraError {
            throw fail(error)
        }
        let outcome = try await execution.execute(output: output) { (cancellation, display) throws(TesseraError) in
            try await MergeRunner.merge(partials: partials, outputFolder: output, scheduler: execution.scheduler,
                                        cache: buildCache, fileHashing: buildCache, cancellation: cancellation, observer: display)
        }
        if outcome.run.wasCancelled { throw ExitCode(outcome.exitStatus) }
        print("Merged \(partials.count) shards: \(outcome.report.variantsWritten) variants into \(output)/")
        print("  manifest: \(outcome.manifestPath)")
        if let counts = outcome.report.cache { print("  cache:    \(CacheSummary.line(counts))") }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}
