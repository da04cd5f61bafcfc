import Foundation
import Glibc
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
        // A port this test holds bound but not listening: a connection to it is refused, and no
        // other test's server can take it meanwhile.
        let held = try RefusingPort()
        defer { held.release() }
        let started = Date()
        await #expect(throws: (any Error).self) {
            try await HTTPRequest.send("GET", URL(string: "http://127.0.0.1:\(held.port)/x")!, timeout: 120)
        }
        #expect(Date().timeIntervalSince(started) < 30, "a deadline of 120 s must not be waited out")
    }
}

/// A loopback TCP port bound and never listened on.
private struct RefusingPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard socketDescriptor >= 0, bound else { throw TestServerError("cannot bind a loopback port") }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { _ = Glibc.close(descriptor) }
}
