@testable import BuildCache
import Foundation
@testable import RemoteAPI
import Testing
import TestServers
import TesseraCore

/// Records past one gRPC message (a plan record of many jobs, a result pack's record).
@Suite("Large entries over gRPC", .serialized)
struct LargeEntryTests {
    @Test("a 6 MiB record is stored without its inline copy (past the 4 MiB message limit) and read back whole from the CAS through ByteStream, checked",
          arguments: [false, true])
    func largeRecord(_ buildGrid: Bool) throws {
        let url: String
        let stop: () -> Void
        if buildGrid {
            let server = try BuildGridServer(mode: .cacheOnly)
            (url, stop) = (server.url, { server.stop() })
        } else {
            let server = try CASDServer()
            (url, stop) = (server.url, { server.stop() })
        }
        defer { stop() }
        let remote = try RemoteCache.reapi(try #require(RemoteEndpoint(url: url)))
        let record = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let key = ContentHash.of(Data("large entry \(UUID())".utf8))
        #expect(remote.upload(entry: record, as: key))
        #expect(remote.hasAction(key))
        #expect(remote.action(key, limit: RemoteCache.planRecordLimit) == record)
        // A small one keeps its inline copy: one call reads it.
        let small = Array("a small record".utf8)
        let smallKey = ContentHash.of(Data("small entry \(UUID())".utf8))
        #expect(remote.upload(entry: small, as: smallKey))
        let before = remote.requestCount
        #expect(remote.action(smallKey) == small)
        #expect(remote.requestCount == before + 1)
        #expect(remote.warnings.isEmpty, "\(remote.warnings)")
    }
}
