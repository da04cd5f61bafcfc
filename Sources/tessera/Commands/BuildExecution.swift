import ArgumentParser
import Foundation
import JobEngine
import Pipeline
import SizeReporting
import TesseraCore

/// How a build runs and says what happened, declared once for the two commands that build,
/// `run` and `merge`: the scheduler's limits, the progress display, stopping at the first
/// failure, and Ctrl-C. (`merge` used to have its own `--jobs` and `--progress`, and no memory
/// budget, no `--fail-fast` and no Ctrl-C handling.)
struct BuildExecution: ParsableArguments {
    // Optional so that the help shows the one default in words, not this machine's core count too.
    @Option(name: .shortAndLong, help: "Run at most this many jobs at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Keep the estimated memory of running jobs and held results within this size, e.g. 512MB, 2GiB.")
    var memoryLimit: ByteCount = .gibibyte

    // `--memory-budget` before it stopped sharing a name with the downscale stage's band budget.
    @Option(name: .customLong("memory-budget"), help: .private)
    var memoryBudget: ByteCount?

    @Option(help: "Progress display: auto (a live line on a terminal, log lines otherwise), plain, json (one object per event on stderr) or quiet (nothing until the summary).")
    var progress: ProgressStyle = .auto

    @Flag(help: "Stop at the first failure instead of building everything else.")
    var failFast = false

    @Flag(help: "Print every warning on its own line (by default a kind that repeats is one line with a count).")
    var verbose = false

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard memory.bytes > 0 else { throw ValidationError("--memory-limit must be more than 0") }
        // Said before anything else can fail, so a script's old spelling is always pointed out.
        for warning in warnings { printError("warning: \(warning)") }
    }

    var scheduler: SchedulerOptions {
        SchedulerOptions(maxConcurrentJobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                         memoryBudget: memory.bytes, failFast: failFast)
    }

    private var memory: ByteCount { memoryBudget ?? memoryLimit }

    /// One line for each deprecated spelling given.
    var warnings: [String] {
        memoryBudget == nil ? [] : ["'--memory-budget' is deprecated; use '--memory-limit', which means the same"]
    }

    /// Runs `build` with Ctrl-C turned into cancellation and the progress display around it, then
    /// prints the build's problems (summarised by kind, or as JSON events) and the CI annotations
    /// for `output` (those `scope` says). A fatal error is printed and exits 2 (configuration) or 1.
    func execute(output: String, annotating scope: @escaping (BuildOutcome) -> AnnotationScope = { _ in .all },
                 _ build: (CancellationSource, any ProgressDisplay) async throws(TesseraError) -> BuildOutcome) async throws -> BuildOutcome {
        let cancellation = CancellationSource()
        let interrupts = InterruptHandler(cancellation: cancellation)
        defer { withExtendedLifetime(interrupts) {} }
        let display = progress.makeDisplay()
        let outcome: BuildOutcome
        do {
            outcome = try await build(cancellation, display)
        } catch {
            display.finish()
            throw fail(error)
        }
        display.finish()
        if display is JSONProgress {
            for problem in outcome.report.warnings + outcome.report.failures { display.report(problem) }
        } else {
            let lines = ProblemSummary.lines(warnings: outcome.report.warnings, failures: outcome.report.failures, verbose: verbose)
            for line in lines { printError(line) }
        }
        // The report stage's budgets, one line per cause (`BudgetFailure`): the exit is 3.
        for failure in BudgetFailure.group(outcome.report.overBudget ?? []) { printError("error: over budget: \(failure.message)") }
        CIAnnotations.emit(outcome.report.failures + outcome.report.warnings, output: output, scope: scope(outcome))
        if outcome.run.wasCancelled {
            printError("interrupted: \(outcome.report.variantsWritten) variant files were complete; no partial file was left behind")
        }
        return outcome
    }
}
