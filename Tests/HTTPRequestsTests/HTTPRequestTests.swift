import Foundation
import HTTPRequests
import TestServers
import Testing

/// The command line's one HTTP client against a real server (nginx from a temporary folder).
@Suite("HTTP requests")
struct HTTPRequestTests {
    @Test("a GET answers the whole body and the status, from async code and from a plain thread; a missing file is a status, not an error")
    func answersWhole() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(body).write(to: root.appendingPathComponent("blob.bin"))
        let server = try NginxServer(serving: root)
        defer { server.stop() }
        let answer = try await HTTPRequest.send("GET", server.baseURL.appendingPathComponent("blob.bin"))
        #expect(answer.status == 200 && answer.body == body)
        let waited = try HTTPRequest.sendWaiting("GET", server.baseURL.appendingPathComponent("missing"))
        #expect(waited.status == 404)
    }

    @Test("a refused connection is reported at once, not after the request's whole deadline")
    func refusedAtOnce() async throws {
        let port = try LoopbackPort.free()
        let started = Date()
        await #expect(throws: (any Error).self) {
            try await HTTPRequest.send("GET", URL(string: "http://127.0.0.1:\(port)/x")!, timeout: 60)
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
