import Foundation
import Testing
import TestServers

/// `tessera run --remote-cache grpc://…` as users run it: the real binary, two jobs at a time.
@Suite("The gRPC remote cache from the command line", .serialized)
struct GRPCCLITests {
    private static let root = GRPCWorkspace.packageRoot

    /// `tessera run` on the sample under `timeout` (a deadlocked build fails the test instead of
    /// hanging it); the exit status and stderr.
    private func run(_ workspace: GRPCWorkspace, _ name: String, _ options: [String],
                     environment: [String: String] = [:]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["300", TesseraProcess.executable, "run", "\(Self.root)/Pipelines/app-thinning.yml",
                             "--input", workspace.input, "--output", "\(workspace.root)/\(name)",
                             "--cache", "\(workspace.root)/cache-\(name)", "--progress", "quiet"] + options
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-grpc-cli-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    @Test("with --jobs 2 (a cooperative pool of two threads), a build fills casd and a fresh checkout restores from it byte-identical; headers and the API key are accepted")
    func twoJobs() async throws {
        let workspace = try await GRPCWorkspace()
        let casd = try CASDServer()
        defer { casd.stop() }
        let options = ["--jobs", "2", "--remote-cache", casd.url, "--remote-header", "x-tessera-test=1"]
        for (name, packs) in [("packs", [String]()), ("entries", ["--no-remote-cache-packs"])] {
            let fill = try run(workspace, "\(name)-fill", options + packs, environment: ["TESSERA_REMOTE_CACHE_API_KEY": "key"])
            #expect(fill.status == 0 && !fill.stderr.contains("remote cache:"), "\(fill.stderr)")
            let restore = try run(workspace, "\(name)-restore", options + packs)
            #expect(restore.status == 0 && !restore.stderr.contains("remote cache:"), "\(restore.stderr)")
            #expect(workspace.outputs("\(name)-restore") == workspace.reference)
            // No per-file job missed (the gather, slice and manifest jobs are keyed by their output folder, the plan by its inputs).
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/\(name)-restore/report.json"))) as? [String: Any])
            let cache = try #require(report["cache"] as? [String: [String: Int]])
            let fileMisses = cache.filter { !["gather", "slice", "manifest", "plan"].contains($0.key) }.values.reduce(0) { $0 + ($1["misses"] ?? 0) }
            let hits = cache.values.reduce(0) { $0 + ($1["hits"] ?? 0) }
            #expect(fileMisses == 0 && hits > 8, "\(cache)")
        }
    }

    @Test("options that do not fit the URL are refused with a clear message")
    func validation() async throws {
        let workspace = try await GRPCWorkspace()
        let cases: [([String], String)] = [
            (["--remote-cache", "ftp://cache:21"], "--remote-cache must be an http://, https://, grpc:// or grpcs:// URL"),
            (["--remote-cache", "http://cache:8080", "--remote-instance", "main"], "--remote-instance applies to a grpc:// or grpcs:// remote cache"),
            (["--remote-cache", "grpc://cache:8980", "--remote-tls-ca", "/etc/hostname"], "--remote-tls-ca applies to a grpcs:// remote cache"),
            (["--remote-cache", "grpc://cache:8980/main"], "a grpc:// URL is HOST:PORT alone"),
            (["--remote-cache", "grpcs://cache:443", "--remote-tls-ca", "/no/such.pem"], "--remote-tls-ca: cannot read '/no/such.pem'"),
            (["--remote-cache", "grpc://cache:8980", "--remote-header", "novalue"], "--remote-header must be NAME=VALUE"),
            (["--remote-header", "a=b"], "need --remote-cache"),
        ]
        for (options, message) in cases {
            let refused = try run(workspace, "refused", options)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(options): \(refused.stderr)")
        }
    }
}
