@testable import BuildCache
import Foundation
import Testing
import TesseraCore
import TestServers

/// Issue 38, item 5: a cache server that answers without end, or cannot be reached, costs a
/// build a bounded answer and one warning — not gigabytes, not a timeout per lookup. The real
/// `tessera` binary runs under an address-space limit, so a regression fails this test rather
/// than the machine; the hostile server (`Tests/Fixtures/servers/endless-body.py`) listens on
/// loopback only and stops by itself.
@Suite("A hostile or absent cache server", .serialized)
struct HostileCacheServerTests {
    private static let root = CacheWorkspace.packageRoot

    /// Runs `tessera run` on the sample under `prlimit --as` through a Python wrapper that reports
    /// the child's peak RSS; returns the exit status, the peak RSS in KiB, stderr and the seconds taken.
    private func build(_ workspace: CacheWorkspace, _ name: String, remote: String?) throws
        -> (status: Int32, peakKiB: Int, stderr: String, seconds: Double) {
        var command = ["prlimit", "--as=\(3 << 30)", "--", TesseraProcess.executable, "run", "\(Self.root)/Pipelines/app-thinning.yml",
                       "--input", workspace.input, "--output", "\(workspace.root)/\(name)", "--cache", "\(workspace.root)/cache-\(name)"]
        if let remote { command += ["--remote-cache", remote] }
        let wrapper = """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
            sys.stderr.buffer.write(r.stderr)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.exit(r.returncode)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", wrapper] + command
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let started = Date()
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, Int(stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, stderr,
                Date().timeIntervalSince(started))
    }

    /// `Tests/Fixtures/servers/endless-body.py` on a free loopback port (it stops by itself after
    /// 60 s), listening when this returns.
    private func startHostileServer(_ options: [String] = []) throws -> (Process, Int) {
        let port = try LoopbackPort.free()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "\(Self.root)/Tests/Fixtures/servers/endless-body.py", String(port), "60"] + options
        try server.run()
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackPort.isListening(port), Date() < deadline { usleep(50_000) }
        return (server, port)
    }

    /// SIGKILL: a child of the test runner may start with SIGTERM blocked.
    private func stop(_ server: Process) {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }

    @Test("a server whose every answer never ends: the build succeeds with the right bytes, one warning, peak RSS at most twice a run without it")
    func endlessBodies() throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let plain = try build(workspace, "plain", remote: nil)
        #expect(plain.status == 0, "\(plain.stderr)")
        let (server, port) = try startHostileServer()
        defer { stop(server) }

        let hostile = try build(workspace, "hostile", remote: "http://127.0.0.1:\(port)")
        #expect(hostile.status == 0, "\(hostile.stderr)")
        #expect(workspace.outputs("\(workspace.root)/hostile") == workspace.outputs("\(workspace.root)/plain"))
        #expect(hostile.stderr.components(separatedBy: "remote cache:").count == 2, "\(hostile.stderr)")
        #expect(hostile.stderr.contains("more than it can be"))
        #expect(hostile.peakKiB <= 2 * plain.peakKiB, "peak RSS \(hostile.peakKiB) KiB against \(plain.peakKiB) KiB")
        #expect(hostile.seconds < 30)
    }

    @Test("a server that refuses connections is one immediate warning, not a timeout per lookup")
    func refusedConnection() throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let port = try LoopbackPort.free()
        let refused = try build(workspace, "refused", remote: "http://127.0.0.1:\(port)")
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("connecting to http://127.0.0.1:\(port) failed (Connection refused)"), "\(refused.stderr)")
        #expect(refused.stderr.components(separatedBy: "remote cache:").count == 2)
        // The client's 10 s request timeout never comes into it.
        #expect(refused.seconds < 8, "\(refused.seconds) s")
        let unknown = try build(workspace, "unknown", remote: "http://no-such-host.invalid:8080")
        #expect(unknown.status == 0 && unknown.stderr.contains("cannot resolve no-such-host.invalid"), "\(unknown.stderr)")
    }

    @Test("HEAD of an entry longer than an error page (a result pack's record) is an answer, not a server sending too much")
    func headOfALargeEntry() throws {
        let workspace = try CacheWorkspace()
        let key = ContentHash.of(Array("a pack's key".utf8))
        let store = "\(workspace.root)/store"
        try FileManager.default.createDirectory(atPath: "\(store)/ac", withIntermediateDirectories: true)
        try Data(count: RemoteCache.errorPageLimit * 3).write(to: URL(fileURLWithPath: "\(store)/ac/\(key.hex)"))
        let server = try NginxServer(serving: URL(fileURLWithPath: store), webDAV: true)
        defer { server.stop() }
        let remote = RemoteCache(base: server.baseURL)
        #expect(remote.hasAction(key))
        #expect(!remote.hasAction(ContentHash.of(Array("another key".utf8))))
        #expect(remote.warnings.isEmpty, "\(remote.warnings)")
    }

    @Test("a server that drips every answer a byte every half second (never idle for the read timeout) is cut off about 10 s into its first request and left alone: one warning, the right bytes, well under the old minute")
    func drippingServer() throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let plain = try build(workspace, "plain", remote: nil)
        let (server, port) = try startHostileServer(["--drip"])
        defer { stop(server) }

        let dripping = try build(workspace, "dripping", remote: "http://127.0.0.1:\(port)")
        #expect(dripping.status == 0, "\(dripping.stderr)")
        #expect(workspace.outputs("\(workspace.root)/dripping") == workspace.outputs("\(workspace.root)/plain"))
        #expect(dripping.stderr.components(separatedBy: "remote cache:").count == 2, "\(dripping.stderr)")
        #expect(dripping.stderr.contains("came too slowly"), "\(dripping.stderr)")
        // Before: each request was held to six times the 10 s timeout.
        #expect(dripping.seconds < 40, "\(dripping.seconds) s")
        #expect(plain.status == 0)
    }
}
