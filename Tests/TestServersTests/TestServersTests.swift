import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestServers
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The launchers other suites rely on: each server really starts, answers, and is gone after `stop()`.
@Suite struct TestServersTests {
    @Test func nginxServesAFileAndAcceptsAWebDAVPut() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("hello".utf8).write(to: root.appendingPathComponent("a.txt"))
        let server = try NginxServer(serving: root, webDAV: true)
        defer { server.stop() }

        let (body, response) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("a.txt"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "hello")

        var put = URLRequest(url: server.baseURL.appendingPathComponent("cas/ab/blob"))
        put.httpMethod = "PUT"
        let (_, putResponse) = try await URLSession.shared.upload(for: put, from: Data("blob".utf8))
        #expect((putResponse as? HTTPURLResponse)?.statusCode == 201)
        #expect(try Data(contentsOf: root.appendingPathComponent("cas/ab/blob")) == Data("blob".utf8))

        let port = server.port
        server.stop()
        #expect(!LoopbackPort.isListening(port))
    }

    @Test func postgresAcceptsConnectionsUntilStopped() throws {
        let server = try PostgresServer()
        #expect(LoopbackPort.isListening(server.port))
        #expect(server.url.hasPrefix("postgres://postgres@127.0.0.1:"))
        let port = server.port
        server.stop()
        #expect(!LoopbackPort.isListening(port))
    }

    @Test("a port another process took is not mistaken for the server's: only the listener's own process tree counts")
    func listeningIsOwnedByTheProcessTree() throws {
        let port = try LoopbackPort.free()
        // A listener in a child of sh (the "; true" keeps sh from exec-ing it): found through the tree.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/bin/sh")
        listener.arguments = ["-c", "python3 -c 'import os,socket,time; p=os.getppid(); s=socket.socket(); s.bind((\"127.0.0.1\", \(port))); s.listen()\nwhile os.getppid() == p: time.sleep(0.05)'; true"]
        try listener.run()
        // The listener ends once sh does, so no orphan outlives the test.
        // SIGKILL: a signal mask or ignored SIGTERM inherited from the test runner must not keep them alive.
        defer { kill(listener.processIdentifier, SIGKILL); listener.waitUntilExit() }
        let bystander = Process()
        bystander.executableURL = URL(fileURLWithPath: "/bin/sleep")
        bystander.arguments = ["30"]
        try bystander.run()
        defer { kill(bystander.processIdentifier, SIGKILL); bystander.waitUntilExit() }

        try LoopbackPort.waitUntilListening(port, process: listener, timeout: 20, name: "listener", log: nil)
        #expect(LoopbackPort.isListening(port))
        #expect(LoopbackPort.isListening(port, by: listener))
        #expect(!LoopbackPort.isListening(port, by: bystander))
        #expect(throws: TestServerError.self) {
            try LoopbackPort.waitUntilListening(port, process: bystander, timeout: 0.5, name: "bystander", log: nil)
        }
    }
}
