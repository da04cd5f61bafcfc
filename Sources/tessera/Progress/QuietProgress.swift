import JobEngine

/// `--progress quiet`: nothing while the run goes; the summary and the problems at the end.
final class QuietProgress: ProgressDisplay {
    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {}
    func finish() {}
}
