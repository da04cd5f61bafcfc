import Foundation
import Testing
import TestServers

/// Whether the REAPI servers can be started here. Under CI a missing installation fails (the
/// launchers throw, naming the install script) instead of skipping.
enum ReapiAvailability {
    static let runnable = ReapiServers.isCI || (try? ReapiServers.installation) != nil
    static let skipped: Comment = "REAPI test servers not installed: run \(ReapiServers.installScript) (make test does)"
}

/// buildbox-casd really starts, answers the REAPI, executes, and is gone after `stop()` or `kill()`.
@Suite(.enabled(if: ReapiAvailability.runnable, ReapiAvailability.skipped))
struct CASDServerTests {
    @Test func answersCapabilitiesAndCASRoundTrips() throws {
        let server = try CASDServer()
        defer { server.stop() }
        #expect(server.url == "grpc://127.0.0.1:\(server.port)")
        let report = try ReapiServers.installation.check(["caps", "cas"], port: server.port)
        #expect(report["caps"]?["digest_functions"] as? [String] == ["SHA256"])
        #expect(report["caps"]?["exec_enabled"] as? Bool == true)
        let cas = try #require(report["cas"])
        #expect(cas["missing_after_upload"] as? [String] == [cas["never_uploaded"] as? String ?? "?"])
        #expect(cas["read_back"] as? Bool == true)
        #expect(cas["bytestream_read_back"] as? Bool == true)
        #expect(cas["action_cache_round_trip"] as? Bool == true)

        let port = server.port
        let folder = server.workFolder
        server.stop()
        #expect(!LoopbackPort.isListening(port))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        server.stop()
    }

    @Test func runsAShellActionWithTheHostsUsr() throws {
        let server = try CASDServer(hostUsr: true)
        defer { server.stop() }
        let report = try ReapiServers.installation.check(["exec"], port: server.port)
        let exec = try #require(report["exec"])
        #expect(exec["exit_code"] as? Int == 0)
        #expect((exec["outputs"] as? [String: String])?["out"] == "\(exec["message"] as? String ?? "?")\n")
    }

    @Test func withoutTheHostsUsrTheSandboxHasNoShell() throws {
        let server = try CASDServer()
        defer { server.stop() }
        let exec = try #require(try ReapiServers.installation.check(["exec"], port: server.port)["exec"])
        #expect(exec["exit_code"] as? Int == 1)
        #expect((exec["stderr"] as? String ?? "").contains("execvp /bin/sh"))
    }

    @Test func servesOnlyItsInstanceName() throws {
        let server = try CASDServer(instance: "tessera")
        defer { server.stop() }
        #expect(server.instance == "tessera")
        _ = try ReapiServers.installation.check(["caps"], port: server.port, instance: "tessera")
        #expect(throws: TestServerError.self) { try ReapiServers.installation.check(["caps"], port: server.port) }
    }

    @Test func killLeavesNothingListening() throws {
        let server = try CASDServer()
        defer { server.stop() }
        server.kill()
        #expect(!server.isRunning)
        #expect(!LoopbackPort.isListening(server.port))
        #expect(server.log.contains("127.0.0.1:\(server.port)"))
        server.stop()
    }
}

/// BuildGrid in its three set-ups: cache-only, over TLS with JWT, and executing on PostgreSQL and a bot.
@Suite(.enabled(if: ReapiAvailability.runnable, ReapiAvailability.skipped))
struct BuildGridServerTests {
    @Test func cacheOnlyAnswersCapabilitiesAndCASRoundTrips() throws {
        let server = try BuildGridServer(mode: .cacheOnly, instance: "main")
        defer { server.stop() }
        #expect(server.url == "grpc://127.0.0.1:\(server.port)")
        let report = try ReapiServers.installation.check(["caps", "cas"], port: server.port, instance: "main")
        #expect(report["caps"]?["max_batch_total_size_bytes"] as? Int == 4_193_280)
        #expect(report["caps"]?["exec_enabled"] as? Bool == false)
        #expect(report["cas"]?["bytestream_read_back"] as? Bool == true)
        #expect(report["cas"]?["action_cache_round_trip"] as? Bool == true)

        let port = server.port
        server.stop()
        #expect(!LoopbackPort.isListening(port))
        #expect(!FileManager.default.fileExists(atPath: server.workFolder.path))
    }

    @Test func cacheOnlyOverTLSWantsAToken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bgd-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tls = try ReapiServers.makeCertificate(in: folder)
        let secret = folder.appendingPathComponent("jwt.secret")
        try "\(UUID().uuidString)\n".write(to: secret, atomically: true, encoding: .utf8)
        let server = try BuildGridServer(tls: tls, jwtSecretFile: secret.path)
        defer { server.stop() }
        #expect(server.url == "grpcs://127.0.0.1:\(server.port)")
        let servers = try ReapiServers.installation
        let report = try servers.check(["cas"], port: server.port, tlsCertificate: tls.cert, jwtSecretFile: secret.path)
        #expect(report["cas"]?["read_back"] as? Bool == true)
        let refusal = #expect(throws: TestServerError.self) {
            try servers.check(["caps"], port: server.port, tlsCertificate: tls.cert)
        }
        #expect(refusal?.description.contains("UNAUTHENTICATED") == true)
    }

    @Test func executionRunsAnActionOnItsBot() throws {
        let server = try BuildGridServer(mode: .execution(bots: 1), instance: "remote")
        defer { server.stop() }
        #expect(server.botCount == 1)
        let report = try ReapiServers.installation.check(["caps", "exec"], port: server.port, instance: "remote")
        #expect(report["caps"]?["exec_enabled"] as? Bool == true)
        let exec = try #require(report["exec"])
        #expect(exec["exit_code"] as? Int == 0)
        #expect((exec["outputs"] as? [String: String])?["out"] == "\(exec["message"] as? String ?? "?")\n")
        // queued, executing, completed: BuildGrid's operations carry their stage, casd's do not.
        #expect((exec["operations"] as? Int ?? 0) >= 2)
        #expect(server.botLog(0).contains("exit=0"))

        server.killBot(0)
        let port = server.port
        server.stop()
        #expect(!LoopbackPort.isListening(port))
        #expect(!FileManager.default.fileExists(atPath: server.workFolder.path))
    }
}
