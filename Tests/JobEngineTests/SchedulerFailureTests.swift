import Foundation
@testable import JobEngine
import Testing
import TesseraCore

@Suite("Scheduler failures, coalescing, cycles")
struct SchedulerFailureTests {
    @Test("two jobs with the same key run once and both dependents read the shared result")
    func coalescesIdenticalJobs() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("decode"))
        graph.add(fakes.job("decode"))
        graph.add(fakes.job("left", dependsOn: ["decode"]))
        graph.add(fakes.job("right", dependsOn: ["decode"]))
        #expect(graph.count == 3)
        #expect(graph.coalescedCount == 1)
        let report = try await Scheduler().run(graph)
        #expect(fakes.instruments.runs(of: "decode") == 1)
        #expect(report.value(of: FakeJobs.ref("left")) == "left(decode)")
        #expect(report.value(of: FakeJobs.ref("right")) == "right(decode)")
    }

    @Test("a failure skips only its dependents; everything else completes and is reported")
    func failureIsolation() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("bad", fails: true))
        graph.add(fakes.job("after-bad", dependsOn: ["bad"]))
        graph.add(fakes.job("after-after-bad", dependsOn: ["after-bad"]))
        graph.add(fakes.job("good"))
        graph.add(fakes.job("after-good", dependsOn: ["good"]))
        graph.add(fakes.job("summary", dependsOn: ["after-bad", "after-good"], tolerant: true))
        let log = EventLog()
        let report = try await Scheduler(options: .init(maxConcurrentJobs: 2)).run(graph, observer: log)

        #expect(report.failures.map(\.job.subject) == ["bad"])
        #expect(report.failures.first?.message == "bad: decode: bad was told to fail")
        #expect(report.skippedCount == 2)
        #expect(fakes.instruments.runs(of: "after-bad") == 0)
        #expect(report.outcomes[FakeJobs.key("after-good")]?.isSuccess == true)
        // The aggregating job still ran, read the good branch and saw which input was missing.
        #expect(report.value(of: FakeJobs.ref("summary")) == "summary(∅,after-good(good))")
        #expect(report.exitStatus == 1)
        #expect(log.lines.filter { $0.hasPrefix("skipped") }.sorted() == ["skipped after-after-bad", "skipped after-bad"])
    }

    @Test("fail-fast starts nothing after the first failure and exits 1")
    func failFastStops() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("first", priority: 3))
        graph.add(fakes.job("bad", priority: 2, fails: true))
        for index in 0..<5 { graph.add(fakes.job("later\(index)", priority: 1)) }
        let options = SchedulerOptions(maxConcurrentJobs: 1, failFast: true)
        let report = try await Scheduler(options: options).run(graph)
        #expect(fakes.instruments.order == ["first", "bad"])
        #expect(report.wasCancelled)
        #expect(report.cancelledCount == 5)
        #expect(report.exitStatus == 1)
    }

    @Test("a cycle is rejected with every job on it named")
    func cycleNamesItsJobs() async throws {
        let fakes = FakeJobs()
        var graph = JobGraph()
        graph.add(fakes.job("root"))
        graph.add(fakes.job("a", dependsOn: ["root", "c"]))
        graph.add(fakes.job("b", dependsOn: ["a"]))
        graph.add(fakes.job("c", dependsOn: ["b"]))
        do {
            _ = try await Scheduler().run(graph)
            Issue.record("a cyclic graph ran")
        } catch {
            #expect(error.kind == .configuration)
            #expect(error.reason.hasSuffix("decode a → decode c → decode b → decode a"))
        }
        #expect(fakes.instruments.order.isEmpty)
    }

    @Test("a dependency missing from the graph is an error naming the job")
    func missingDependency() async throws {
        var graph = JobGraph()
        graph.add(FakeJobs().job("orphan", dependsOn: ["nowhere"]))
        await #expect(throws: TesseraError.self) { _ = try await Scheduler().run(graph) }
    }
}
