import TesseraCore

/// Something that happened to a job, as observers see it.
public enum SchedulerEvent: Sendable {
    case started(JobSummary)
    case finished(JobSummary, seconds: Double)
    case failed(JobSummary, TesseraError, seconds: Double)
    /// Never ran: a dependency failed, or the run was cancelled first.
    case skipped(JobSummary, TesseraError)
}

/// Counts at the moment of an event: what a progress display needs.
public struct RunProgress: Sendable, Equatable {
    public var total: Int
    /// Jobs that ended in any way (succeeded, failed, skipped, cancelled).
    public var done: Int
    public var failed: Int
    public var running: Int
    public var elapsedSeconds: Double

    /// A naive estimate of the seconds left: elapsed time per finished job times jobs left.
    public var estimatedSecondsLeft: Double? {
        guard done > 0, done < total else { return nil }
        return elapsedSeconds / Double(done) * Double(total - done)
    }
}

/// Receives scheduler events, one at a time, in the order they happened.
///
/// Calls come from the scheduler's own task, never concurrently, so an observer needs no locking
/// for its own state beyond being `Sendable`; it must return quickly.
public protocol SchedulerObserver: Sendable {
    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress)
}
