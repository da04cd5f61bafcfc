import Foundation
@testable import JobEngine
import Testing
import TesseraCore

@Suite("Scheduler limits")
struct SchedulerLimitsTests {
    @Test("never runs more jobs at once than the concurrency limit")
    func concurrencyLimitHolds() async throws {
        for limit in [1, 2, 3] {
            let fakes = FakeJobs()
            var graph = JobGraph()
            for index in 0..<24 { graph.add(fakes.job("job\(index)")) }
            let report = try await Scheduler(options: .init(maxConcurrentJobs: limit)).run(graph)
            #expect(report.isSuccess)
            #expect(fakes.instruments.peakRunning <= limit)
            #expect(report.peakRunningJobs <= limit)
            #expect(report.startOrder.count == 24)
        }
    }

    @Test("keeps the sum of running jobs' estimated costs within the memory budget")
    func memoryBudgetHolds() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        let costs = [300, 500, 200, 700, 100, 400, 600, 250, 350, 450, 150, 550]
        for (index, cost) in costs.enumerated() { graph.add(fakes.job("job\(index)", cost: cost)) }
        let options = SchedulerOptions(maxConcurrentJobs: 4, memoryBudget: 1000)
        let report = try await Scheduler(options: options).run(graph)
        #expect(report.isSuccess)
        #expect(fakes.instruments.peakCost <= 1000)
        #expect(report.peakEstimatedMemory <= 1000)
    }

    @Test("runs a job larger than the whole budget alone instead of deadlocking")
    func oversizedJobRunsAlone() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("small1", cost: 10))
        graph.add(fakes.job("huge", cost: 5000, priority: 5))
        graph.add(fakes.job("small2", cost: 10))
        let options = SchedulerOptions(maxConcurrentJobs: 3, memoryBudget: 100)
        let report = try await Scheduler(options: options).run(graph)
        #expect(report.isSuccess)
        #expect(fakes.instruments.runs(of: "huge") == 1)
        // While the huge job ran, the estimated sum is its cost alone, never its cost plus another.
        #expect(report.peakEstimatedMemory == 5000)
        #expect(fakes.instruments.peakCost == 5000)
    }

    @Test("starts ready jobs highest priority first, then in insertion order")
    func priorityOrder() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("low", priority: 0))
        graph.add(fakes.job("high", priority: 10))
        graph.add(fakes.job("mid-a", priority: 5))
        graph.add(fakes.job("mid-b", priority: 5))
        let report = try await Scheduler(options: .init(maxConcurrentJobs: 1)).run(graph)
        #expect(fakes.instruments.order == ["high", "mid-a", "mid-b", "low"])
        #expect(report.startOrder == ["high", "mid-a", "mid-b", "low"].map(FakeJobs.key))
    }

    @Test("a dependency always finishes before its dependent starts")
    func dependenciesFirst() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        // Added dependents-first, so insertion order alone would get it wrong.
        graph.add(fakes.job("c", dependsOn: ["b"], priority: 9))
        graph.add(fakes.job("b", dependsOn: ["a"], priority: 9))
        graph.add(fakes.job("a"))
        let report = try await Scheduler(options: .init(maxConcurrentJobs: 3)).run(graph)
        #expect(fakes.instruments.order == ["a", "b", "c"])
        #expect(report.value(of: FakeJobs.ref("c")) == "c(b(a))")
    }
}

/// A result whose lifetime the test can observe.
private final class TrackedResult: Sendable {
    let released: Instruments
    init(released: Instruments) { self.released = released }
    deinit { released.enter("released", cost: 0) }
}

@Suite("Scheduler result lifetime")
struct SchedulerResultLifetimeTests {
    @Test("an intermediate result is dropped once its readers end, and counts against the budget until then")
    func intermediateResultsAreReleased() async throws {
        let tracker = Instruments()
        var graph = JobGraph()
        let decode = graph.add(Job(key: FakeJobs.key("decode"), kind: .decode, subject: "a.png", memoryCost: 400,
                      resultMemoryCost: 300) { _ in TrackedResult(released: tracker) })
        graph.add(Job(key: FakeJobs.key("encode"), kind: .encode, subject: "a.png", dependencies: [decode.key],
                      memoryCost: 200) { context in
            _ = try context.input(decode)
            return "encoded"
        })
        let report = try await Scheduler(options: .init(maxConcurrentJobs: 2, memoryBudget: 1000)).run(graph)
        #expect(report.isSuccess)
        #expect(report.value(of: decode) == nil)
        // The scheduler and the job's context let go when the encode ends; the worker thread that
        // ran a job may still be unwinding for an instant, so the release is awaited, not sampled.
        for _ in 0..<200 where tracker.runs(of: "released") == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(tracker.runs(of: "released") == 1)
        #expect(report.value(of: FakeJobs.ref("encode")) == "encoded")
        // The encode ran while the decoded result was held: 200 running + 300 held.
        #expect(report.peakEstimatedMemory == 500)
    }
}

@Suite("Scheduler work lifetime")
struct SchedulerWorkLifetimeTests {
    /// A graph whose first job's work captured `input`; its dependent records whether the input
    /// was still alive when it ran (waiting up to `patience` × 10 ms for it to go).
    private static func graph(capturing tracker: Instruments, patience: Int) -> JobGraph {
        var graph = JobGraph()
        do {
            let input = TrackedResult(released: tracker)
            graph.add(Job(key: FakeJobs.key("first"), kind: .decode, subject: "a.png") { _ in
                withExtendedLifetime(input) { "decoded" }
            })
        }
        graph.add(Job(key: FakeJobs.key("then"), kind: .encode, subject: "a.png", dependencies: [FakeJobs.key("first")]) { _ in
            // The worker thread that ran the first job may still be unwinding for an instant.
            for _ in 0..<patience where tracker.runs(of: "released") == 0 { usleep(10_000) }
            return tracker.runs(of: "released") == 1 ? "released" : "held"
        })
        return graph
    }

    @Test("a job's work, and the input it captured, is let go once the job has ended, not at the run's end")
    func workIsDroppedAsJobsEnd() async throws {
        let tracker = Instruments()
        let report = try await Scheduler().run(Self.graph(capturing: tracker, patience: 200))
        #expect(report.isSuccess)
        #expect(report.value(of: FakeJobs.ref("then")) == "released")
    }

    @Test("a graph the caller keeps is not changed by a run: it runs again whole")
    func keptGraphRunsAgain() async throws {
        let tracker = Instruments()
        let graph = Self.graph(capturing: tracker, patience: 0)
        for _ in 0..<2 {
            let report = try await Scheduler().run(graph)
            #expect(report.isSuccess)
            #expect(report.value(of: FakeJobs.ref("then")) == "held")
        }
        #expect(tracker.runs(of: "released") == 0)
    }
}

@Suite("Scheduler kept results")
struct SchedulerKeptResultTests {
    @Test("a job marked keepsResult keeps its result in the report after its readers end")
    func keptResult() async throws {
        var graph = JobGraph()
        let manifest = graph.add(Job(key: FakeJobs.key("manifest"), kind: .manifest, subject: "m", keepsResult: true) { _ in "contents" })
        graph.add(Job(key: FakeJobs.key("slice"), kind: .slice, subject: "s", dependencies: [manifest.key]) { context in
            try context.input(manifest) + " sliced"
        })
        let report = try await Scheduler().run(graph)
        #expect(report.value(of: manifest) == "contents")
        #expect(report.value(of: FakeJobs.ref("slice")) == "contents sliced")
    }
}
