import BuildCache
import Foundation
import JobEngine
import Pipeline
import Testing
import TesseraCore

@Suite("Damaged cache entries")
struct CacheDamageTests {
    enum Damage: String, CaseIterable, Sendable {
        case flippedBlobByte, truncatedBlob, missingBlob, flippedEntryByte
    }

    /// The sample built through a fresh cache: the workspace, its outputs, the generated 1x PNG
    /// of `icons/alpha` and the path of that variant's blob in the cache.
    private func builtSample() async throws
        -> (CacheWorkspace, [String: Data], variant: (path: String, sha256: ContentHash), blob: String) {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let first = try await workspace.build(into: "\(workspace.root)/first", cache: try workspace.openCache())
        let variant = try #require(first.manifest?.assets.first { $0.name.name == "icons/alpha" }?.variants.first)
        let blob = "\(workspace.cacheFolder.path)/cas/\(variant.sha256.hex.prefix(2))/\(variant.sha256.hex)"
        return (workspace, workspace.outputs("\(workspace.root)/first"), (variant.path, variant.sha256), blob)
    }

    @Test("a damaged entry is detected by its hash, rebuilt, replaced, and never shipped", arguments: Damage.allCases)
    func damageIsAMiss(_ damage: Damage) async throws {
        let (workspace, reference, variant, blob) = try await builtSample()
        // Damage the entry of the generated 1x PNG of `icons/alpha`, and its blob.
        let entry = try #require(workspace.cacheFiles("ac").first { path in
            (try? String(contentsOfFile: path, encoding: .utf8))?.contains(variant.sha256.hex) == true
                && (try? String(contentsOfFile: path, encoding: .utf8))?.contains("\"stage\":\"write\"") == true
        })
        switch damage {
        case .flippedBlobByte: try flipByte(in: blob)
        case .truncatedBlob: try truncate(blob)
        case .missingBlob: try FileManager.default.removeItem(atPath: blob)
        case .flippedEntryByte: try flipByte(in: entry)
        }

        let second = try await workspace.build(into: "\(workspace.root)/second", cache: try workspace.openCache())
        #expect(second.exitStatus == 0)
        #expect(second.report.cache?[.write]?.misses == 1)
        #expect(workspace.outputs("\(workspace.root)/second") == reference)
        // The rebuilt result replaced the damaged one.
        #expect(ContentHash.of(try #require(FileManager.default.contents(atPath: blob))) == variant.sha256)
        let third = try await workspace.build(into: "\(workspace.root)/third", cache: try workspace.openCache())
        #expect(third.report.cache?.fileMisses == 0)
        #expect(workspace.outputs("\(workspace.root)/third") == reference)
    }

    @Test("a restored output is a file of its own: edited in place (as jpegoptim or exiftool do), neither the cache blob nor another build folder changes")
    func outputEditedInPlaceChangesItAlone() async throws {
        let (workspace, reference, variant, blob) = try await builtSample()
        let first = "\(workspace.root)/first/\(variant.path)"
        #expect(try inode(first) != inode(blob))
        let second = try await workspace.build(into: "\(workspace.root)/second", cache: try workspace.openCache())
        #expect(second.exitStatus == 0)
        let other = "\(workspace.root)/second/\(variant.path)"
        #expect(try inode(other) != inode(blob) && inode(other) != inode(first))

        // Another tool rewrites the first build's output in place (same file, not a new one renamed over it).
        let handle = try #require(FileHandle(forWritingAtPath: first))
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: Data([0xFF, 0x00, 0xFF]))
        try handle.close()

        #expect(ContentHash.of(try #require(FileManager.default.contents(atPath: blob))) == variant.sha256)
        #expect(workspace.outputs("\(workspace.root)/second") == reference)
        // A third build restores the untouched blob: a hit, and the right bytes.
        let third = try await workspace.build(into: "\(workspace.root)/third", cache: try workspace.openCache())
        #expect(third.exitStatus == 0 && third.report.cache?.fileMisses == 0)
        #expect(workspace.outputs("\(workspace.root)/third") == reference)
    }

    @Test("a second output folder restored from a warm local cache reads no file again: blobs written or hashed before are known by their stat")
    func warmRestoreReadsNothing() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        let first = try await workspace.build(into: "\(workspace.root)/first", cache: try workspace.openCache())
        let cache = try workspace.openCache()
        let second = try await workspace.build(into: "\(workspace.root)/second", cache: cache)
        #expect(second.report.cache?.fileMisses == 0)
        #expect(workspace.outputs("\(workspace.root)/second") == workspace.outputs("\(workspace.root)/first"))
        #expect(cache.fingerprints.filesRead == 0, "\(cache.fingerprints.filesRead) files read")
        #expect(first.exitStatus == 0)
    }

    @Test("two runs at once sharing one cache folder both build correctly and leave it whole")
    func concurrentRunsShareTheCache() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let reference = try await {
            _ = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
            return workspace.outputs("\(workspace.root)/plain")
        }()
        async let one = workspace.build(into: "\(workspace.root)/one", cache: try workspace.openCache())
        async let two = workspace.build(into: "\(workspace.root)/two", cache: try workspace.openCache())
        let (first, second) = try await (one, two)
        #expect(first.exitStatus == 0 && second.exitStatus == 0)
        #expect(workspace.outputs("\(workspace.root)/one") == reference)
        #expect(workspace.outputs("\(workspace.root)/two") == reference)

        // Every blob is named by its hash, every entry is whole, no temporary file is left.
        for blob in workspace.cacheFiles("cas") {
            let bytes = try #require(FileManager.default.contents(atPath: blob))
            #expect(ContentHash.of(bytes).hex == (blob as NSString).lastPathComponent)
        }
        #expect(workspace.cacheFiles("tmp").isEmpty)
        let third = try await workspace.build(into: "\(workspace.root)/three", cache: try workspace.openCache())
        #expect(third.report.cache?.fileMisses == 0)
        #expect(workspace.outputs("\(workspace.root)/three") == reference)
    }

    private func inode(_ path: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    private func flipByte(in path: String) throws {
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func truncate(_ path: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
    }
}
