import TesseraCore
import Foundation
import JobEngine
import Synchronization

/// One live line on a terminal: done/total, the stage running, elapsed time and an estimate of
/// what is left. Failures are printed above the line as they happen.
final class TerminalProgress: ProgressDisplay {
    private let lastDraw = Mutex<Double>(-1)
    /// The most recently started job, shown on every redraw.
    private let current = Mutex<String>("")

    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        switch event {
        case .started(let job):
            current.withLock { $0 = "\(job.kind) \(job.subject)" }
        case .failed(let job, let error, _):
            write("\r\u{1B}[K" + "failed: \(error.located(file: job.subject, origin: ProblemOrigin(job.kind)))\n")
        case .finished, .skipped:
            break
        }
        // Redraw at most ten times a second; a terminal cannot show more and it costs the run time.
        let due = lastDraw.withLock { last -> Bool in
            guard progress.elapsedSeconds - last >= 0.1 || progress.done == progress.total else { return false }
            last = progress.elapsedSeconds
            return true
        }
        guard due else { return }
        var line = "[\(progress.done)/\(progress.total)] \(formatSeconds(progress.elapsedSeconds))"
        if let left = progress.estimatedSecondsLeft { line += " ETA \(formatSeconds(left))" }
        if progress.failed > 0 { line += " \(progress.failed) failed" }
        let stage = current.withLock { $0 }
        if !stage.isEmpty, progress.done < progress.total { line += "  \(stage)" }
        let columns = 100
        if line.count > columns { line = String(line.prefix(columns - 1)) + "…" }
        write("\r\u{1B}[K" + line)
    }

    func finish() {
        write("\r\u{1B}[K")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
