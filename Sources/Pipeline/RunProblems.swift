import JobEngine
import TesseraCore

/// What went wrong in a run, gathered once: the failures (planning errors, failed jobs, and files
/// that differ from the manifest) and the build's own warnings, which a plan record keeps and
/// every run it serves reports again.
struct RunProblems {
    var failures: [BuildProblem]
    var buildWarnings: [BuildProblem]

    init(_ request: BuildRequest, plan: BuildPlanner.Plan, run: RunReport, written: WrittenManifests?) {
        failures = plan.problems.filter { $0.severity == .error }
        failures += run.failures.map {
            let error = $0.error
            return BuildProblem(severity: .error, file: error.file ?? $0.job.subject,
                                stage: error.origin ?? ProblemOrigin($0.job.kind), reason: error.reason)
        }
        if let manifest = written?.manifest, !run.wasCancelled, !request.buildsPart {
            failures += OutputConsistency.check(manifest, outputFolder: request.outputFolder, hashing: request.fileHashing)
        }
        buildWarnings = plan.problems.filter { $0.severity == .warning }
        buildWarnings += (written?.warnings ?? []).map {
            BuildProblem(severity: .warning, file: request.outputFolder, stage: .pack, reason: $0)
        }
        buildWarnings += (written?.sourceWarnings ?? []).map {
            BuildProblem(severity: .warning, file: "\(request.inputFolder)/\($0.source)", stage: $0.note.stage,
                         reason: $0.note.text)
        }
    }
}
