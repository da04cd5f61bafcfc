import Foundation
import TestServers
#if canImport(Glibc)
import Glibc
#endif

// STAND-IN until branch reapi-servers lands TestServers.CASDServer and BuildGridServer: the same
// API over /work/reapi-prep's scripts. Deleted at the merge.

/// buildbox-casd on a free loopback port (stand-in).
final class CASDServer: @unchecked Sendable {
    let port: Int
    var url: String { "grpc://127.0.0.1:\(port)" }
    let instance: String
    let workFolder: URL
    private static let prep = "/work/reapi-prep"

    init(jobs: Int = 2, hostUsr: Bool = false, instance: String? = nil, extraArguments: [String] = []) throws {
        self.instance = instance ?? ""
        workFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-casd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        let arguments = [workFolder.path, String(port)] + (instance.map { ["--local-server-instance=\($0)"] } ?? []) + extraArguments
        try Self.run("\(Self.prep)/start-casd.sh", arguments)
    }

    /// Through system(3): Foundation's `Process.waitUntilExit` hung on these scripts (their
    /// server lives on in the background).
    static func run(_ script: String, _ arguments: [String]) throws {
        let line = ([script] + arguments).map { "'\($0)'" }.joined(separator: " ") + " >/dev/null 2>&1 </dev/null"
        guard system(line) == 0 else { throw TestServerError("\(script) failed") }
    }

    func stop() {
        try? Self.run("\(Self.prep)/stop-casd.sh", [workFolder.path])
    }

    func kill() {
        if let text = try? String(contentsOfFile: workFolder.appendingPathComponent("casd.pid").path, encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            Glibc.kill(pid, SIGKILL)
            usleep(200_000)
        }
    }

    deinit { stop() }
}

/// BuildGrid cache-only on a free loopback port (stand-in).
final class BuildGridServer: @unchecked Sendable {
    enum Mode { case cacheOnly }
    let port: Int
    var url: String { "grpc://127.0.0.1:\(port)" }
    let workFolder: URL

    init(mode: Mode = .cacheOnly) throws {
        workFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bgd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        try CASDServer.run("/work/reapi-prep/start-buildgrid.sh", [workFolder.path, String(port), "--cache-only"])
    }

    func stop() {
        try? CASDServer.run("/work/reapi-prep/stop-buildgrid.sh", [workFolder.path])
    }

    func kill() {
        if let text = try? String(contentsOfFile: workFolder.appendingPathComponent("bgd.pid").path, encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            Glibc.kill(pid, SIGKILL)
            usleep(200_000)
        }
    }

    deinit { stop() }
}
