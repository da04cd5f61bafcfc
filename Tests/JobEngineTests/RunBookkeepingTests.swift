@testable import JobEngine
import Testing
import TesseraCore

/// The graph and the scheduler's records are kept by each job's place, in arrays (issue 54,
/// item 14): dictionaries keyed by job (a job's 160 bytes in every bucket, half of them empty;
/// five more of the scheduler's) were hundreds of megabytes at 100,000 tiny masters.
@Suite("Run bookkeeping by place")
struct RunBookkeepingTests {
    @Test("neither the graph nor the run's state holds a dictionary of jobs or of per-job records")
    func noDictionariesByJob() {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("a"))
        graph.add(fakes.job("b", dependsOn: ["a"]))
        graph.add(fakes.job("c", dependsOn: ["a", "b", "a"]))
        #expect(graph.keys == ["a", "b", "c"].map(FakeJobs.key))
        #expect((0..<3).map { graph.job(at: $0).key } == graph.keys)
        #expect(graph.keys.map { graph.place(of: $0) } == [0, 1, 2])
        let state = RunState(graph: graph, options: SchedulerOptions())
        for holder in [Mirror(reflecting: graph), Mirror(reflecting: state)] {
            for child in holder.children {
                // By the dynamic type: an empty dictionary of any type casts (`is`) to every other.
                let type = ObjectIdentifier(Swift.type(of: child.value))
                let byJob: [Any.Type] = [[JobKey: AnyJob].self, [JobKey: JobOutcome].self, [JobKey: [JobKey]].self,
                                         [JobKey: UInt64].self]
                #expect(!byJob.contains { ObjectIdentifier($0) == type }, "\(child.label ?? "?")")
                // The graph's one index of places is all that is looked up by key.
                #expect(type != ObjectIdentifier([JobKey: Int].self) || child.label == "places", "\(child.label ?? "?")")
            }
        }
        // Only the job nothing precedes is ready; a dependency listed twice is waited for once.
        #expect(state.initiallyReady().map(\.key) == [FakeJobs.key("a")])
    }

    @Test("a run records every outcome by key, and releases dependents as their dependencies end")
    func outcomesByKey() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        let a = graph.add(fakes.job("a"))
        graph.add(fakes.job("b", dependsOn: ["a"], fails: true))
        graph.add(fakes.job("c", dependsOn: ["a", "b", "a"]))
        let d = graph.add(fakes.job("d", dependsOn: ["a", "a"]))
        let report = try await Scheduler(options: SchedulerOptions(maxConcurrentJobs: 2)).run(graph)
        #expect(report.outcomes.count == 4)
        #expect(report.failures.map(\.job.subject) == ["b"])
        #expect(report.skippedCount == 1)
        if case .skipped = report.outcomes[FakeJobs.key("c")] {} else { Issue.record("c was not skipped") }
        #expect(report.outcomes[d.key]?.isSuccess == true)
        #expect(report.outcomes[a.key]?.isSuccess == true)
    }
}
