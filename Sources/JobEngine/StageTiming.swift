import TesseraCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraCore

/// Where a run's time went, for one stage: what Xcode's build timing summary shows per task kind.
public struct StageTiming: Sendable, Equatable, Codable {
    /// Jobs of the stage that ran (succeeded or failed).
    public var jobs: Int = 0
    /// Seconds during which at least one job of the stage was running.
    public var wallSeconds: Double = 0
    /// The jobs' run times added up (more than `wallSeconds` when they ran side by side).
    public var jobSeconds: Double = 0
    /// CPU seconds the jobs' own threads used (helper threads a job starts are not counted).
    public var cpuSeconds: Double = 0

    public init() {}
}

/// One job's span in the run, for the stage timings.
struct JobSpan: Sendable {
    let start: Double
    let end: Double
    let cpuSeconds: Double
}

extension StageTiming {
    /// Timings per stage from the spans of its jobs.
    static func summarise(_ spans: [JobKind: [JobSpan]]) -> [JobKind: StageTiming] {
        spans.mapValues { spans in
            var timing = StageTiming()
            timing.jobs = spans.count
            var coveredUntil = -Double.infinity
            for span in spans.sorted(by: { $0.start < $1.start }) {
                timing.jobSeconds += span.end - span.start
                timing.cpuSeconds += span.cpuSeconds
                // The union of the spans: only the part past what is already covered counts.
                if span.end > coveredUntil {
                    timing.wallSeconds += span.end - max(span.start, coveredUntil)
                    coveredUntil = span.end
                }
            }
            return timing
        }
    }
}

/// The CPU time the calling thread has used so far, in seconds.
enum ThreadCPUClock {
    static func now() -> Double {
        var spec = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return 0 }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
