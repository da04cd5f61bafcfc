@testable import BuildCache
import Foundation
import JobEngine
import Testing
import TesseraCore

/// Issue 54, item 9: an entry another machine made is taken only as its own job's.
@Suite("Which adopted entries are their jobs'")
struct AdoptedEntryTests {
    private static let key = ContentHash.of(Array("a job".utf8))
    private static let bytes: [UInt8] = Array("a variant".utf8)

    private static func entry(key: ContentHash = key, stage: String = "write", path: String = "variants/a@2x.png") throws -> [UInt8] {
        try ActionEntry(key: key, stage: stage, outputs: [ActionEntry.Output(path: path, sha256: ContentHash.of(bytes), size: bytes.count)],
                        metadata: []).serialised()
    }

    @Test("its key, its stage and exactly its job's files: anything else is refused, saying what was wrong, and nothing is written")
    func onlyItsOwnJob() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adopted-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try BuildCache(folder: CacheFolder(path: folder))
        let job = CachedJob(key: Self.key, kind: .write, files: ["variants/a@2x.png"])
        let refusals: [([UInt8], CachedJob, String)] = [
            (try Self.entry(key: ContentHash.of([1])), job, "was made under key"),
            (try Self.entry(stage: "copy"), job, "is a copy entry, not a write one"),
            (try Self.entry(path: "manifest.json.sig"), job, "writes manifest.json.sig where its job writes variants/a@2x.png"),
            (try Self.entry(), CachedJob(key: Self.key, kind: .write, files: nil), "whose files the plan does not name"),
        ]
        for (entry, job, reason) in refusals {
            #expect {
                _ = try cache.blobsWanted(by: entry, for: job)
            } throws: { error in
                guard case .misfiled(let text) = error as? BuildCache.Refusal else { return false }
                return text.contains(reason)
            }
            #expect(!cache.adopt(entry: entry, for: job))
        }
        #expect(throws: BuildCache.Refusal.self) { _ = try cache.blobsWanted(by: Array("not an entry".utf8), for: job) }
        #expect(!cache.holdsEntry(Self.key))

        // Its own entry: its blob wanted, then taken once the blob is here.
        let wanted = try cache.blobsWanted(by: try Self.entry(), for: job)
        #expect(wanted.map(\.sha256) == [ContentHash.of(Self.bytes)])
        try FileManager.default.createDirectory(atPath: (wanted[0].destination as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: wanted[0].destination, contents: Data(Self.bytes)))
        #expect(cache.adopt(entry: try Self.entry(), for: job))
        #expect(cache.holdsEntry(Self.key))
    }
}
