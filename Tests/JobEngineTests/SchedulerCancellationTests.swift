import Foundation
@testable import JobEngine
import Testing
import TesseraCore

@Suite("Scheduler cancellation")
struct SchedulerCancellationTests {
    @Test("cancelling mid-write leaves no file under the final name and no temporary file, and exits 130")
    func cancellationLeavesNothingHalfWritten() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-cancel-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cancellation = CancellationSource()
        let target = "\(folder)/out.bin"
        var graph = JobGraph()
        let writer = Job(key: JobKey(kind: .write, version: 1), kind: .write, subject: target) { context in
            let file = try AtomicFileWriter(path: target)
            for chunk in 0..<10_000 {
                try context.checkCancellation()
                try file.append([UInt8](repeating: UInt8(chunk & 0xff), count: 1024))
                if chunk == 3 { cancellation.cancel() }  // Ctrl-C arrives after some bytes hit the disk.
                usleep(100)
            }
            try file.commit()
            return target
        }
        graph.add(writer)
        graph.add(Job(key: JobKey(kind: .write, version: 1), kind: .write, subject: "after",
                      dependencies: [writer.key]) { _ in "ran" })
        let report = try await Scheduler().run(graph, cancellation: cancellation)

        #expect(report.wasCancelled)
        #expect(report.exitStatus == 130)
        #expect(report.failures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: target))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
    }

    @Test("jobs not yet started when cancellation arrives never start")
    func cancelledJobsNeverStart() async throws {
        let fakes = FakeJobs()
        let cancellation = CancellationSource()
        var graph = JobGraph()
        graph.add(Job(key: FakeJobs.key("trigger"), kind: .decode, subject: "trigger", priority: 1) { _ in
            cancellation.cancel()
            return "trigger"
        })
        for index in 0..<6 { graph.add(fakes.job("queued\(index)")) }
        let report = try await Scheduler(options: .init(maxConcurrentJobs: 1)).run(graph, cancellation: cancellation)
        #expect(fakes.instruments.order.isEmpty)
        #expect(report.cancelledCount == 6)
        #expect(report.exitStatus == 130)
    }
}
