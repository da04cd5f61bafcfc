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

    /// Measured on a thread of its own, waiting on the request itself: an async test's time also
    /// counts the wait for a free thread of Swift's cooperative pool (two on two cores), which
    /// other suites' blocking calls hold on a busy machine — 44 s once, none of it this client's.
    /// What must not be waited is the client's: the connect timeout (10 s) or the deadline (120 s).
    @Test("a refused connection is reported at once as refused, not after the connect timeout or the request's whole deadline")
    func refusedAtOnce() async throws {
        // A port this test holds bound but not listening: a connection to it is refused, and no
        // other test's server can take it meanwhile.
        let held = try RefusingPort()
        defer { held.release() }
        let url = URL(string: "http://127.0.0.1:\(held.port)/x")!
        let (error, seconds) = await withCheckedContinuation { (continuation: CheckedContinuation<((any Error)?, Double), Never>) in
            Thread.detachNewThread {
                let started = Date()
                var failure: (any Error)?
                do { _ = try HTTPRequest.sendWaiting("GET", url, timeout: 120) } catch { failure = error }
                continuation.resume(returning: (failure, Date().timeIntervalSince(started)))
            }
        }
        let failure = try #require(error, "a request to a port nobody listens on must fail")
        #expect(String(describing: failure).localizedCaseInsensitiveContains("refused"), "\(failure)")
        #expect(seconds < 10, "took \(seconds) s: the connect timeout (10 s) or the deadline (120 s) was waited out")
        // From async code too, the failure is the refusal, not a timeout.
        await #expect {
            try await HTTPRequest.send("GET", url, timeout: 120)
        } throws: { error in
            String(describing: error).localizedCaseInsensitiveContains("refused")
        }
    }
    /// Runs `request` on a thread of its own and says how long it took, so a busy cooperative
    /// pool (other suites' blocking calls) is not counted against this client (`refusedAtOnce`).
    private func timedOnItsOwnThread(_ request: @escaping @Sendable () throws -> Void) async -> ((any Error)?, Double) {
        await withCheckedContinuation { (continuation: CheckedContinuation<((any Error)?, Double), Never>) in
            Thread.detachNewThread {
                let started = Date()
                var failure: (any Error)?
                do { try request() } catch { failure = error }
                continuation.resume(returning: (failure, Date().timeIntervalSince(started)))
            }
        }
    }

    @Test("an endless body is cut off at the byte cap with TooLarge, not buffered: the server gets to send a few MiB at most")
    func endlessBodyIsCapped() async throws {
        let server = try EndlessServer()
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/manifest.json")!
        let (error, seconds) = await timedOnItsOwnThread {
            _ = try HTTPRequest.sendWaiting("GET", url, timeout: 60, maxBodyBytes: 1 << 20)
        }
        let tooLarge = try #require(error as? HTTPRequest.TooLarge, "an endless body was accepted, or failed otherwise: \(String(describing: error))")
        #expect(tooLarge.limit == 1 << 20 && tooLarge.description.contains("larger than the 1048576 bytes accepted"))
        #expect(seconds < 30, "took \(seconds) s")
        // Sockets buffer some bytes beyond the cap; never the 2 GB an unbounded read took.
        #expect(server.sent < 64 << 20, "\(server.sent) bytes sent")
        // From async code too.
        await #expect(throws: HTTPRequest.TooLarge.self) { try await HTTPRequest.send("GET", url, timeout: 60, maxBodyBytes: 1 << 20) }
    }

    @Test("a body dripped slowly fails at the request's deadline, whatever progress it makes")
    func slowBodyHitsTheDeadline() async throws {
        let server = try EndlessServer(pause: 0.2)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/m")!
        let (error, seconds) = await timedOnItsOwnThread { _ = try HTTPRequest.sendWaiting("GET", url, timeout: 2) }
        #expect(error != nil, "a dripped body was accepted")
        #expect(seconds < 20, "took \(seconds) s against a 2 s deadline")
    }
}
