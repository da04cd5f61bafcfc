import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real buildbox-casd 1.4.25 on a free loopback port: a complete Remote Execution API v2 server
/// (CAS, action cache, ByteStream, Capabilities, and Execution through buildbox-run in bubblewrap).
///
/// Installed by `scripts/ensure-reapi-servers.sh` (``ReapiServers``). Its cache, its log and the
/// actions' staging folders live in ``workFolder``, removed by `stop()`. What the tests can rely on:
/// SHA-256 only; `max_batch_total_size_bytes` 0 but a 4 MiB gRPC message limit; the default instance
/// is `""` and any other name is `INVALID_ARGUMENT` (with `instance:` only that name is valid);
/// failed actions are cached unless `extraArguments` has `--cache-failures=false`.
///
/// An action's sandbox is its input root and nothing else (plus /proc, /dev, /tmp): only a static
/// executable in the input root runs, unless `hostUsr` binds the host's /usr in.
public final class CASDServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// `grpc://127.0.0.1:<port>`.
    public var url: String { "grpc://127.0.0.1:\(port)" }
    /// The instance name it serves: `""` unless started with `instance:`.
    public let instance: String
    /// Its folder: `cache/` (CAS and action cache) and `casd.log`.
    public let workFolder: URL
    /// What casd has logged so far (`--log-level=info`).
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private let process: Process
    private var logFile: URL { workFolder.appendingPathComponent("casd.log") }

    /// Starts casd and waits until it listens (about 0.3 s).
    /// - Parameters:
    ///   - jobs: how many actions run at once.
    ///   - hostUsr: binds the host's /usr read-only into every action's sandbox, with /usr/lib64 at
    ///     /lib64, /usr/lib at /lib and /usr/bin at /bin (Debian's merged /usr), so `/bin/sh` and
    ///     dynamically linked binaries in the input root run. Tests only: a real remote executor
    ///     would use a container image.
    ///   - instance: the only instance name it accepts (`--local-server-instance`); nil: `""`.
    ///   - extraArguments: more `buildbox-casd` options (e.g. `--cache-failures=false`).
    public init(jobs: Int = 2, hostUsr: Bool = false, instance: String? = nil, extraArguments: [String] = []) throws {
        let servers = try ReapiServers.installation
        self.instance = instance ?? ""
        workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-casd-\(UUID().uuidString)", isDirectory: true)
        let cache = workFolder.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        var options = ["--buildbox-run=\(servers.buildboxRun.path)", "--jobs=\(jobs)", "--log-level=info"]
        if hostUsr {
            // Binding a symlink such as /lib64 itself fails in bwrap ("Can't find source path"): bind what it points at.
            var mounts = ["/usr:/usr", "/usr/lib:/lib", "/usr/bin:/bin"]
            if FileManager.default.fileExists(atPath: "/usr/lib64") { mounts.append("/usr/lib64:/lib64") }
            options += mounts.map { "--runner-arg=--ro-bind-mount=\($0)" }
        }
        if let instance { options.append("--local-server-instance=\(instance)") }
        options += extraArguments
        let log = workFolder.appendingPathComponent("casd.log")
        do {
            for _ in 0..<5 {
                let port = try LoopbackPort.free()
                // buildbox-fuse is deliberately not installed: casd stages inputs by hardlink or copy (no /dev/fuse).
                let process = try ServerProcess.start(servers.casd, ["--bind=127.0.0.1:\(port)"] + options + [cache.path],
                                                      in: workFolder, log: log)
                do {
                    if try ServerProcess.waitUntilListening(port, process: process, timeout: 10, name: "buildbox-casd", log: log) {
                        self.port = port
                        self.process = process
                        return
                    }
                } catch {
                    ServerProcess.signal(SIGKILL, to: process)
                    process.waitUntilExit()
                    throw error
                }
            }
            throw TestServerError("buildbox-casd found each of 5 free ports taken when it bound it. \(ServerProcess.tail(log))")
        } catch {
            try? FileManager.default.removeItem(at: workFolder)
            throw error
        }
    }

    /// Stops casd (SIGTERM; SIGKILL after 5 s) and removes its work folder. Safe to call twice, and after `kill()`.
    public func stop() {
        ServerProcess.stop(process, grace: 5)
        try? FileManager.default.removeItem(at: workFolder)
    }

    /// SIGKILL, as if the server died mid-build: clients see `UNAVAILABLE` at once. Keeps the work
    /// folder (and ``log``) until `stop()`.
    public func kill() {
        ServerProcess.signal(SIGKILL, to: process)
        process.waitUntilExit()
    }

    /// Whether casd is still running.
    public var isRunning: Bool { process.isRunning }

    deinit { stop() }
}
