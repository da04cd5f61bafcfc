@testable import BuildCache
import Foundation
import Testing
import TesseraCore

/// The rule behind issue 51, item 3: while a blob this run brought is lent to an output (moved
/// there rather than copied), its bytes are always somewhere a reader finds them, and a blob a
/// job of the run stored is never moved out of the store.
@Suite("Blobs lent to outputs")
struct LentBlobsTests {
    private func setUp() throws -> (folder: CacheFolder, hash: ContentHash, bytes: [UInt8], root: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-lent-\(UUID().uuidString)").path
        let folder = CacheFolder(path: "\(root)/cache")
        try folder.prepare()
        let bytes = Array("the same icon, restored by twenty jobs".utf8)
        let hash = ContentHash.of(bytes)
        #expect(BlobCopy.place(bytes, at: folder.blob(hash), temporaryFolder: folder.temporary))
        try FileManager.default.createDirectory(atPath: "\(root)/out", withIntermediateDirectories: true)
        return (folder, hash, bytes, root)
    }

    private func contents(_ descriptor: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
        return Array(bytes.prefix(max(count, 0)))
    }

    @Test("a blob moved into one output is read from that output by every other job, and an open blob outlives the move")
    func lentBytesStayReadable() throws {
        let (folder, hash, bytes, root) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lent = LentBlobs()
        lent.brought([hash])
        #expect(lent.take(hash))
        #expect(!lent.take(hash), "only one output takes the blob")
        // A job that opened the store's blob before the move still reads it after.
        let early = try #require(lent.open(hash, store: folder.blob(hash)))
        defer { close(early.descriptor) }
        #expect(!early.lent)
        #expect(lent.move(hash, from: folder.blob(hash), to: "\(root)/out/first.png"))
        #expect(FileStat(path: folder.blob(hash)) == nil)
        #expect(contents(early.descriptor) == bytes)
        // A job that looks after the move finds the bytes in the output they moved into.
        let late = try #require(lent.open(hash, store: folder.blob(hash)))
        defer { close(late.descriptor) }
        #expect(late.lent && late.path == "\(root)/out/first.png")
        #expect(contents(late.descriptor) == bytes)
        #expect(lent.takeAll().map(\.output) == ["\(root)/out/first.png"])
    }

    @Test("a blob a job of the run stored stays in the store: a move taken before is refused, and none is taken after")
    func storedBlobsAreNotMoved() throws {
        let (folder, hash, _, root) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lent = LentBlobs()
        lent.brought([hash])
        #expect(lent.take(hash))
        #expect(lent.keep(hash, store: folder.blob(hash)))
        #expect(!lent.move(hash, from: folder.blob(hash), to: "\(root)/out/first.png"))
        #expect(FileStat(path: folder.blob(hash)) != nil)
        lent.giveBack(hash)
        lent.brought([hash])
        #expect(!lent.take(hash))
    }

    @Test("a move that did not happen gives the blob back to the next output")
    func unmovedBlobsAreGivenBack() throws {
        let (_, hash, _, root) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lent = LentBlobs()
        lent.brought([hash])
        #expect(lent.take(hash))
        lent.giveBack(hash)
        #expect(lent.take(hash))
    }
}
