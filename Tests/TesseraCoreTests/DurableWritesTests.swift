import Foundation
import Testing
import TesseraCore
import TestSupport

/// Durability costs only Tessera's own writes (issue 56): a flush covers the files this process
/// placed unflushed and the folders they (or folders it made) went into, and nothing else.
@Suite("Durable writes")
struct DurableWritesTests {
    @Test("a flush covers exactly the files placed unflushed under its folder and their folders, deepest first; nothing else")
    func flushCoversOwnWrites() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = "\(root)/out"
        // Files not written by Tessera: one beside the output folder, one inside it.
        try FileManager.default.createDirectory(atPath: "\(out)/theirs", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(root)/checkout.txt", contents: Data("git".utf8)))
        #expect(FileManager.default.createFile(atPath: "\(out)/theirs/notes.txt", contents: Data("x".utf8)))
        let record = FlushRecord()
        DurableWrites.use(record.flusher, under: out)
        defer { DurableWrites.use(nil, under: out) }

        try AtomicFile.write([1], to: "\(out)/a.png", flushing: false)
        try AtomicFile.write([2], to: "\(out)/deep/er/b.png", flushing: false)
        let writer = try AtomicFileWriter(path: "\(out)/deep/c.bin")
        try writer.append([3])
        try writer.commit(flushing: false)
        // Flushed as it is written: nothing left for the batch.
        try AtomicFile.write([4], to: "\(out)/theirs/durable.json")
        // Placed outside the folder flushed: left for its own folder's flush.
        try AtomicFile.write([5], to: "\(root)/elsewhere/d.png", flushing: false)

        #expect(DurableWrites.flush(under: out))
        #expect(record.files.withLock { $0 } == ["\(out)/a.png", "\(out)/deep/c.bin", "\(out)/deep/er/b.png"])
        // The folders that received a file or a folder this process made, children before parents.
        #expect(record.folders.withLock { $0 } == ["\(out)/deep/er", "\(out)/deep", out])
        #expect(DurableWrites.pending("\(root)/elsewhere/d.png") && !DurableWrites.pending("\(out)/a.png"))

        // Flushed once: a second flush has nothing to do.
        #expect(DurableWrites.flush(under: out))
        #expect(record.files.withLock { $0 }.count == 3 && record.folders.withLock { $0 }.count == 3)
        #expect(DurableWrites.flush(under: "\(root)/elsewhere"))
        #expect(!DurableWrites.pending("\(root)/elsewhere/d.png"))
    }

    @Test("a folder made for a file is flushed in the folder above, up past the flushed folder when that was made too")
    func madeFoldersAreFlushedInTheirParents() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let record = FlushRecord()
        let out = "\(root)/out"
        DurableWrites.use(record.flusher, under: out)
        defer { DurableWrites.use(nil, under: out) }
        try AtomicFile.write([1], to: "\(out)/x/y.png", flushing: false)
        #expect(DurableWrites.flush(under: out))
        #expect(record.files.withLock { $0 } == ["\(out)/x/y.png"])
        // `out` was made in `root`: its entry there is this process's write too.
        #expect(record.folders.withLock { $0 } == ["\(out)/x", out, root])
    }

    @Test("the system flusher fsyncs what was written and tolerates a file removed since")
    func systemFlush() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<100 { try AtomicFile.write([UInt8(index)], to: "\(root)/f/\(index % 7)/\(index).bin", flushing: false) }
        try FileManager.default.removeItem(atPath: "\(root)/f/3/3.bin")
        #expect(DurableWrites.flush(under: root))
        #expect(!DurableWrites.pending("\(root)/f/0/0.bin"))
    }
}
