import Foundation
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
}
