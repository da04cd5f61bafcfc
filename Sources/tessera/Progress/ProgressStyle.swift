import ArgumentParser
import Pipeline
import Foundation
import JobEngine

/// How `tessera run` reports progress.
enum ProgressStyle: String, ExpressibleByArgument, CaseIterable {
    case auto
    case plain
    case json
    case quiet

    func makeDisplay() -> any ProgressDisplay {
        switch self {
        case .auto: isatty(STDERR_FILENO) != 0 ? TerminalProgress() : PlainProgress()
        case .plain: PlainProgress()
        case .json: JSONProgress()
        case .quiet: QuietProgress()
        }
    }
}

/// A scheduler observer that draws progress and can tidy up when the run ends.
protocol ProgressDisplay: SchedulerObserver {
    func finish()
    /// Tells the user of one failure or warning of the build, after the run.
    func report(_ problem: BuildProblem)
}

extension ProgressDisplay {
    func report(_ problem: BuildProblem) {
        printError("\(problem.severity == .error ? "error" : "warning"): \(problem.message)")
    }
}

/// `12.3s`, `2m05s`: durations as people read them.
func formatSeconds(_ seconds: Double) -> String {
    if seconds < 60 { return String(format: "%.1fs", seconds) }
    let whole = Int(seconds.rounded())
    return String(format: "%dm%02ds", whole / 60, whole % 60)
}
