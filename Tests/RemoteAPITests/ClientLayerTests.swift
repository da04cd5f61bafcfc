import Foundation
@testable import RemoteAPI
import Testing
import TestServers
import TesseraCore
import REAPIMessages

/// The client layer alone against buildbox-casd and BuildGrid: what a remote executor builds on.
@Suite("The REAPI client layer", .serialized)
struct ClientLayerTests {
    private static func blob(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    private func roundTrip(_ url: String) async throws {
        // A whole suite on two busy cores can hold a call for seconds: the deadline is for a dead server, not a slow one.
        let connection = try RemoteConnection(endpoint: try #require(RemoteEndpoint(url: url)), timeout: .seconds(60))
        let store = ContentStore(connection: connection)
        let seed = UInt8.random(in: 0...255)
        // An empty blob, a small one, one just past the batch limit, and one of 5 MiB (ByteStream, 6 pieces).
        let limits = try await connection.serverLimits()
        let sizes = [0, 1000, limits.batchBytes + 1, 5 << 20 + 17]
        let blobs = sizes.map { Self.blob($0, seed: seed) }
        let uploads = blobs.map { BlobUpload(digest: REAPIDigest(of: $0), source: .bytes($0)) }
        let fresh = try await store.findMissing(uploads.map(\.digest))
        #expect(Set(fresh.map(\.hash)).isSuperset(of: uploads.dropFirst().map(\.digest.hash)))
        try await store.uploadMissing(uploads)
        #expect(try await store.findMissing(uploads.map(\.digest)).isEmpty)

        let small = try await store.read([uploads[1].digest])
        #expect(small[uploads[1].digest] == blobs[1])
        for (index, upload) in uploads.enumerated() {
            let collected = Collector()
            let reading = try #require(try await store.stream(upload.digest) { collected.add($0) })
            #expect(reading.size == sizes[index] && !reading.stopped)
            #expect(reading.hash == ContentHash.of(blobs[index]) && collected.data == blobs[index])
        }
        // Into a file, checked.
        let downloaded = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: downloaded) }
        #expect(try await store.download(uploads[3].digest, to: downloaded.path))
        #expect(FileManager.default.contents(atPath: downloaded.path) == blobs[3])
        // Absent: nil, not an error.
        let absent = REAPIDigest(of: Self.blob(99, seed: seed &+ 1) + Data("absent".utf8))
        #expect(try await store.stream(absent) { _ in true } == nil)
        #expect(try await store.read([absent]).isEmpty)

        // A file source goes up in pieces too.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let large = Self.blob(3 << 20 + 5, seed: seed &+ 2) + Data("file".utf8)
        try large.write(to: file)
        try await store.uploadMissing([BlobUpload(digest: REAPIDigest(of: large), source: .file(file.path))])
        #expect(try await store.findMissing([REAPIDigest(of: large)]).isEmpty)

        let actions = ActionCacheClient(connection: connection)
        var result = Build_Bazel_Remote_Execution_V2_ActionResult()
        var output = Build_Bazel_Remote_Execution_V2_OutputFile()
        output.path = "out"
        output.digest = uploads[1].digest
        result.outputFiles = [output]
        let key = REAPIDigest(ContentHash.of(Data("key \(seed) \(UUID())".utf8)), size: 32)
        #expect(try await actions.result(for: key) == nil)
        try await actions.store(result, for: key)
        #expect(try await actions.result(for: key) == result)
    }

    @Test("buildbox-casd: blobs up and down through batches and ByteStream, and an action result")
    func casd() async throws {
        let server = try CASDServer()
        defer { server.stop() }
        try await roundTrip(server.url)
    }

    @Test("BuildGrid cache-only: the same")
    func buildGrid() async throws {
        let server = try BuildGridServer(mode: .cacheOnly)
        defer { server.stop() }
        try await roundTrip(server.url)
    }
}

/// Collects a streamed read's pieces.
final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = Data()
    func add(_ piece: UnsafeRawBufferPointer) -> Bool {
        lock.withLock { collected.append(contentsOf: piece) }
        return true
    }
    var data: Data { lock.withLock { collected } }
}
