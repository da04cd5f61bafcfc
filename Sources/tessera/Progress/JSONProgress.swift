import Foundation
import JobEngine
import TesseraCore
import Pipeline
import TesseraCore

/// One JSON object per event on stderr (JSON Lines), for tools that drive Tessera.
///
/// `{"event":"finished","stage":"decode","subject":"a.png","job":"3f2a…","seconds":0.12,"done":3,"total":9,"failed":0,"elapsed":0.5}`
final class JSONProgress: ProgressDisplay {
    private struct Line: Encodable {
        let event: String
        let stage: ProblemOrigin
        let subject: String
        let job: String
        let seconds: Double?
        let error: String?
        let done: Int
        let total: Int
        let failed: Int
        let elapsed: Double
        /// Present (true) when the result came from the build cache.
        let cached: Bool?
    }

    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        let line: Line = switch event {
        case .started(let job):
            line(for: "started", job, seconds: nil, error: nil, progress)
        case .finished(let job, let seconds):
            line(for: "finished", job, seconds: seconds, error: nil, progress)
        case .failed(let job, let error, let seconds):
            line(for: "failed", job, seconds: seconds, error: error.reason, progress)
        case .skipped(let job, let error):
            line(for: error.kind == .cancelled ? "cancelled" : "skipped", job, seconds: nil, error: error.reason, progress)
        }
        write(line)
    }

    private func line(for name: String, _ job: JobSummary, seconds: Double?, error: String?,
                      _ progress: RunProgress) -> Line {
        Line(event: name, stage: ProblemOrigin(job.kind), subject: job.subject, job: job.key.short, seconds: seconds, error: error,
             done: progress.done, total: progress.total, failed: progress.failed, elapsed: progress.elapsedSeconds,
             cached: job.fromCache ? true : nil)
    }

    func finish() {}

    /// Warnings and failures are events too, so stderr stays pure JSON Lines:
    /// `{"event":"warning","file":"a.png","stage":"plan","reason":"…"}`.
    func report(_ problem: BuildProblem) {
        struct Problem: Encodable {
            let event: String
            let file: String
            let stage: ProblemOrigin
            let reason: String
        }
        write(Problem(event: problem.severity == .error ? "error" : "warning", file: problem.file,
                      stage: problem.stage, reason: problem.reason))
    }

    /// One line of JSON Lines on stderr.
    private func write(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}
