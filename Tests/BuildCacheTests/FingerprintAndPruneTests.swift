import BuildCache
import Foundation
import JobEngine
import Testing
import TesseraCore

@Suite("Fingerprint index and pruning")
struct FingerprintAndPruneTests {
    @Test("an unchanged file is not read again; a changed one is; a racily recorded one is read again")
    func fingerprintsSpareUnchangedFiles() throws {
        let workspace = try CacheWorkspace()
        let path = "\(workspace.root)/source.bin"
        let index = "\(workspace.root)/fingerprints"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        // Old enough that hashing it now is not racy.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path)
        let first = FingerprintIndex(file: index)
        let hash = try first.contentHash(ofFileAt: path)
        #expect(hash == ContentHash.of([UInt8]([1, 2, 3])))
        first.save(temporaryFolder: workspace.root, lock: "\(workspace.root)/lock")

        // A new process' index answers from its entries, without reading the file.
        let second = FingerprintIndex(file: index)
        #expect(try second.contentHash(ofFileAt: path) == hash)
        #expect(second.filesRead == 0)

        // Changed content (and size): hashed again.
        try Data([9, 9, 9, 9]).write(to: URL(fileURLWithPath: path))
        let third = FingerprintIndex(file: index)
        #expect(try third.contentHash(ofFileAt: path) == ContentHash.of([UInt8]([9, 9, 9, 9])))
        #expect(third.filesRead == 1)
        third.save(temporaryFolder: workspace.root, lock: "\(workspace.root)/lock")

        // That hash was taken in the instant the file was written: not trusted, so it is read again.
        let fourth = FingerprintIndex(file: index)
        _ = try fourth.contentHash(ofFileAt: path)
        #expect(fourth.filesRead == 1)
    }

    @Test("pruning keeps the most recently used entries that fit and removes the blobs only removed entries named")
    func pruneIsLeastRecentlyUsed() async throws {
        let workspace = try CacheWorkspace()
        let cache = try workspace.openCache()
        let outputs = "\(workspace.root)/out"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        var keys: [ContentHash] = []
        for index in 0..<4 {
            let name = "file\(index).bin"
            try Data(repeating: UInt8(index), count: 10_000).write(to: URL(fileURLWithPath: "\(outputs)/\(name)"))
            let key = ContentHash.of(Array("entry \(index)".utf8))
            cache.store(key, kind: .write, result: CachedResult(files: [name], metadata: [UInt8(index)]), from: outputs)
            keys.append(key)
        }
        // Entry 0 is the oldest, entry 3 the newest; then entry 0 is used (a hit touches it).
        for (index, key) in keys.enumerated() {
            let entry = "\(workspace.cacheFolder.path)/ac/\(key.hex.prefix(2))/\(key.hex)"
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 10) * 60)],
                                                  ofItemAtPath: entry)
        }
        try FileManager.default.removeItem(atPath: "\(outputs)/file0.bin")
        #expect(cache.restore(keys[0], kind: .write, into: outputs) == [0])

        let before = CacheMaintenance(folder: workspace.cacheFolder).statistics()
        #expect(before.entries == 4 && before.blobs == 4)
        let result = CacheMaintenance(folder: workspace.cacheFolder).prune(maxBytes: 25_000)
        #expect(result.removedEntries == 2 && result.removedBlobs == 2)
        #expect(result.bytesAfter <= 25_000)
        let restoredFolder = "\(workspace.root)/again"
        let fresh = try workspace.openCache()
        #expect(fresh.restore(keys[0], kind: .write, into: restoredFolder) == [0])
        #expect(fresh.restore(keys[3], kind: .write, into: restoredFolder) == [3])
        #expect(fresh.restore(keys[1], kind: .write, into: restoredFolder) == nil)
        #expect(fresh.restore(keys[2], kind: .write, into: restoredFolder) == nil)
        #expect(FileManager.default.contents(atPath: "\(restoredFolder)/file3.bin") == Data(repeating: 3, count: 10_000))
    }
}
