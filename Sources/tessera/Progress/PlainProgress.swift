import TesseraCore
import Foundation
import JobEngine

/// Log lines for CI and pipes: one line per finished or failed job, no terminal control codes.
final class PlainProgress: ProgressDisplay {
    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        let counter = "[\(progress.done)/\(progress.total)]"
        let line: String? = switch event {
        case .started: nil
        case .finished(let job, let seconds):
            "\(counter) \(job.kind) \(job.subject) (\(job.fromCache ? "cached" : formatSeconds(seconds)))"
        case .failed(let job, let error, _):
            "\(counter) FAILED \(error.located(file: job.subject, origin: ProblemOrigin(job.kind)))"
        case .skipped(let job, let error):
            error.kind == .cancelled ? nil : "\(counter) skipped \(job.kind) \(job.subject): \(error.reason)"
        }
        if let line { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    func finish() {}
}
