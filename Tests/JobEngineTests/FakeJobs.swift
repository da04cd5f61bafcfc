import Foundation
@testable import JobEngine
import Synchronization
import TesseraCore

/// Instruments for fake jobs: counts what is running right now and the highest values seen.
final class Instruments: Sendable {
    private struct Counters {
        var running = 0
        var runningCost = 0
        var peakRunning = 0
        var peakCost = 0
        var runs: [String: Int] = [:]
        var order: [String] = []
    }

    private let counters = Mutex(Counters())

    func enter(_ name: String, cost: Int) {
        counters.withLock {
            $0.running += 1
            $0.runningCost += cost
            $0.peakRunning = max($0.peakRunning, $0.running)
            $0.peakCost = max($0.peakCost, $0.runningCost)
            $0.runs[name, default: 0] += 1
            $0.order.append(name)
        }
    }

    func leave(cost: Int) {
        counters.withLock {
            $0.running -= 1
            $0.runningCost -= cost
        }
    }

    var peakRunning: Int { counters.withLock { $0.peakRunning } }
    var peakCost: Int { counters.withLock { $0.peakCost } }
    var order: [String] { counters.withLock { $0.order } }
    func runs(of name: String) -> Int { counters.withLock { $0.runs[name, default: 0] } }
}

/// Builds deterministic fake jobs whose keys derive from a name.
struct FakeJobs {
    let instruments = Instruments()

    static func key(_ name: String) -> JobKey {
        JobKey(kind: .decode, version: 1, options: ["name": name])
    }

    /// The job `job(name)` adds, as the graph hands it back.
    static func ref(_ name: String) -> JobRef<String> { JobRef(key(name)) }

    /// A job that records itself, holds the CPU briefly (so jobs overlap), and returns its name
    /// joined with its inputs' values: outputs depend on inputs only, never on timing.
    func job(_ name: String, dependsOn dependencies: [String] = [], cost: Int = 0, priority: Int = 0,
             fails: Bool = false, tolerant: Bool = false, holdMicroseconds: UInt32 = 500) -> Job<String> {
        let instruments = self.instruments
        let dependencyRefs = dependencies.map(Self.ref)
        return Job(key: Self.key(name), kind: .decode, subject: name, dependencies: dependencyRefs.map(\.key),
                   memoryCost: cost, priority: priority, toleratesFailedDependencies: tolerant) { context in
            instruments.enter(name, cost: cost)
            defer { instruments.leave(cost: cost) }
            usleep(holdMicroseconds)
            if fails { throw TesseraError(.invalidInput, reason: "\(name) was told to fail") }
            let inputs = dependencyRefs.map { (try? context.input($0)) ?? "∅" }
            return inputs.isEmpty ? name : "\(name)(\(inputs.joined(separator: ",")))"
        }
    }
}

/// Records events for assertions.
final class EventLog: SchedulerObserver {
    private let events = Mutex<[String]>([])

    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        let line: String = switch event {
        case .started(let job): "started \(job.subject)"
        case .finished(let job, _): "finished \(job.subject)"
        case .failed(let job, _, _): "failed \(job.subject)"
        case .skipped(let job, _): "skipped \(job.subject)"
        }
        events.withLock { $0.append(line) }
    }

    var lines: [String] { events.withLock { $0 } }
}
