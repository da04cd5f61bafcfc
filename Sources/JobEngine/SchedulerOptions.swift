import Foundation
import TesseraCore

/// The limits and policies of one scheduler run.
public struct SchedulerOptions: Sendable {
    /// How ready jobs of equal priority are ordered.
    public enum TieBreak: Sendable, Equatable {
        /// The order jobs were added to the graph: the default, reproducible.
        case insertionOrder
        /// A pseudo-random order from a seed: tests use it to show outputs do not depend on order.
        case shuffled(seed: UInt64)
    }

    /// At most this many jobs run at once (at least 1).
    public var maxConcurrentJobs: Int
    /// The sum of running jobs' `memoryCost` stays within this many bytes; a single job larger
    /// than the whole budget still runs, alone, so that the scheduler can never deadlock.
    public var memoryBudget: Int
    /// A job whose `memoryCost` is over this fails before it starts, naming its subject
    /// (`MachineMemory.jobCeiling`: it could not finish on this machine).
    public var memoryCeiling: Int
    /// Stop at the first failure: cancel running jobs and start no more.
    public var failFast: Bool
    public var tieBreak: TieBreak

    public init(maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                memoryBudget: Int = ByteCount.gibibyte.bytes,
                failFast: Bool = false, tieBreak: TieBreak = .insertionOrder, memoryCeiling: Int = MachineMemory.jobCeiling) {
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
        self.memoryBudget = max(0, memoryBudget)
        self.memoryCeiling = max(1, memoryCeiling)
        self.failFast = failFast
        self.tieBreak = tieBreak
    }
}
