@testable import Pipeline
@testable import RemoteExecution
import JobEngine
import RemoteAPI
import Testing
import TesseraCore

@Suite("Which work units an executor gets")
struct UnitBatchesTests {
    private static func job(_ key: ContentHash) -> CachedJob { CachedJob(key: key, kind: .write, files: nil) }

    private func unit(_ n: UInt8, reads: [String], keys: Int = 2) -> RemoteWorkOrder.Unit {
        let vector = reads.contains { $0.lowercased().hasSuffix(".svg") || $0.hasSuffix(".pdf") }
        return RemoteWorkOrder.Unit(ids: [ContentHash.of([n])], cachedJobs: (0..<keys).map { Self.job(ContentHash.of([n, UInt8($0)])) },
                                    reads: reads, subject: reads.first ?? "",
                                    kinds: vector ? [.rasterize, .encode, .write] : [.decode, .write])
    }

    @Test("units the cache holds whole stay out, rasterised vectors, HEIC and what stays in the app stay here, carried vectors and the rest go in batches of the given size")
    func eligibilityAndBatches() {
        let held = ContentHash.of([1, 0]), alsoHeld = ContentHash.of([1, 1]), halfHeld = ContentHash.of([2, 0])
        let units = [unit(1, reads: ["a.png"]), unit(2, reads: ["b.png"]), unit(3, reads: ["icon.SVG"]),
                     unit(4, reads: ["photo.heic"]), unit(5, reads: ["c.jpg"]), unit(6, reads: ["d.gif"]),
                     unit(7, reads: ["doc.pdf"]), unit(8, reads: ["e.webp"]), unit(9, reads: [], keys: 0),
                     RemoteWorkOrder.Unit(ids: [ContentHash.of([10])], cachedJobs: [Self.job(ContentHash.of([10, 0]))], reads: ["kept.pdf"],
                                          subject: "kept.pdf", kinds: [.carry]),
                     RemoteWorkOrder.Unit(ids: [ContentHash.of([11])], cachedJobs: [Self.job(ContentHash.of([11, 0]))],
                                          reads: ["AppIcon.appiconset/Contents.json"], subject: "AppIcon", kinds: [.app])]
        let batches = UnitBatches(units, unitsPerAction: { _ in 2 }) { [held, alsoHeld, halfHeld].contains($0) }
        #expect(batches.cached == 2)
        #expect(batches.localOnly.map(\.subject) == ["icon.SVG", "photo.heic", "doc.pdf", "AppIcon"])
        #expect(batches.batches.map { $0.map(\.subject) } == [["b.png", "c.jpg"], ["d.gif", "e.webp"], ["kept.pdf"]])
        #expect(UnitBatches(units, unitsPerAction: { _ in 0 }) { _ in false }.batches.count == 6, "one a unit: 1, 2, 5, 6, 8 and 10")
    }

    @Test("without --remote-batch the units are spread evenly over the actions in flight, at most 64 an action")
    func automaticBatch() {
        func settings(_ inFlight: Int) -> ExecutorSettings {
            ExecutorSettings(endpoint: RemoteEndpoint(url: "grpc://127.0.0.1:1")!, pipeline: "app-thinning", inputFolder: "in",
                             worker: "tessera", actionsInFlight: inFlight)
        }
        #expect(settings(10).automaticBatch(units: 600) == 60)
        #expect(settings(100).automaticBatch(units: 600) == 6)
        #expect(settings(2).automaticBatch(units: 600) == 64)
        #expect(settings(16).automaticBatch(units: 3) == 1)
        #expect(settings(7).automaticBatch(units: 50) == 8)
    }
}
