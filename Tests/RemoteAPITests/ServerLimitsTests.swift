@testable import RemoteAPI
import SwiftProtobuf
import Testing
import REAPIMessages

/// The capabilities check on answers captured from the two servers (FINDINGS: casd advertises
/// no batch limit, BuildGrid 4,193,280 bytes) and on ones a Tessera cache must refuse.
@Suite("A server's capabilities")
struct ServerLimitsTests {
    private func capabilities(_ json: String) throws -> Build_Bazel_Remote_Execution_V2_ServerCapabilities {
        try Build_Bazel_Remote_Execution_V2_ServerCapabilities(jsonString: json)
    }

    @Test("buildbox-casd's \"no limit\" (0) is capped at the 4 MiB message limit it enforces, less headroom")
    func casdBatchLimit() throws {
        let answer = try capabilities("""
            {"cacheCapabilities":{"digestFunctions":["SHA256"],"actionCacheUpdateCapabilities":{"updateEnabled":true},
             "maxBatchTotalSizeBytes":"0","symlinkAbsolutePathStrategy":"ALLOWED"},
             "executionCapabilities":{"digestFunction":"SHA256","execEnabled":true},
             "lowApiVersion":{"major":2,"minor":1},"highApiVersion":{"major":2,"minor":12}}
            """)
        let limits = try ServerLimits.from(answer).get()
        #expect(limits == ServerLimits(batchBytes: 4_128_768, updatesActionCache: true, executes: true))
    }

    @Test("BuildGrid's advertised 4,193,280 bytes is taken, less the same headroom")
    func buildGridBatchLimit() throws {
        let answer = try capabilities("""
            {"cacheCapabilities":{"digestFunctions":["SHA256"],"actionCacheUpdateCapabilities":{"updateEnabled":true},
             "maxBatchTotalSizeBytes":"4193280","symlinkAbsolutePathStrategy":"DISALLOWED"}}
            """)
        #expect(try ServerLimits.from(answer).get().batchBytes == 4_193_280 - 65_536)
        // A small advertised limit is kept as it is; a huge one is capped at the message limit.
        let small = try capabilities(#"{"cacheCapabilities":{"digestFunctions":["SHA256"],"maxBatchTotalSizeBytes":"1048576"}}"#)
        #expect(try ServerLimits.from(small).get().batchBytes == 1_048_576 - 65_536)
        let huge = try capabilities(#"{"cacheCapabilities":{"digestFunctions":["SHA256"],"maxBatchTotalSizeBytes":"1073741824"}}"#)
        #expect(try ServerLimits.from(huge).get().batchBytes == 4_128_768)
    }

    @Test("a server without SHA-256 is refused, naming what it offers; one that disallows updates is read-only")
    func refusals() throws {
        let md5 = try capabilities(#"{"cacheCapabilities":{"digestFunctions":["MD5","SHA1"]}}"#)
        guard case .failure(let error) = ServerLimits.from(md5) else {
            Issue.record("a server offering only MD5 and SHA1 was accepted")
            return
        }
        #expect(error.description == "the server does not offer the SHA-256 digest function (it offers md5, sha1)")
        let readOnly = try capabilities("""
            {"cacheCapabilities":{"digestFunctions":["SHA256","BLAKE3"],"actionCacheUpdateCapabilities":{"updateEnabled":false}}}
            """)
        #expect(try ServerLimits.from(readOnly).get().updatesActionCache == false)
        // No list at all: a server from before digest negotiation, whose one function was SHA-256.
        #expect(try ServerLimits.from(try capabilities("{}")).get().updatesActionCache == true)
    }
}
