import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real BuildGrid 0.9.1 (`bgd server start`) on a free loopback port.
///
/// Installed by `scripts/ensure-reapi-servers.sh` (``ReapiServers``). Two modes:
/// - ``Mode/cacheOnly``: CAS (on disk), action cache (in memory: lost with the server),
///   ByteStream and Capabilities. No database. About 3 s to start.
/// - ``Mode/execution(bots:)``: also Execution and Operations, with the SQL scheduler on its own
///   throwaway PostgreSQL (a ``PostgresServer``, schema by `bgd migrate apply`) and N Remote Workers
///   API bots (`Tests/Fixtures/reapi/rwapi-bot.py`, a test fixture: no sandbox, one action at a
///   time each, so host tools like `/bin/sh` work). About 13 s to start.
///
/// Config, CAS, logs and the bots' work folders live in ``workFolder``; `stop()` stops everything
/// and removes it. What the tests can rely on: SHA-256; `max_batch_total_size_bytes` 4,193,280;
/// operations carry `ExecuteOperationMetadata` (queued, executing, completed); unknown platform
/// properties are `FAILED_PRECONDITION`; failed actions are cached.
public final class BuildGridServer: @unchecked Sendable {
    /// What BuildGrid serves.
    public enum Mode: Sendable, Equatable {
        /// CAS, action cache, ByteStream, Capabilities.
        case cacheOnly
        /// Also Execution, with this many bots (0 is allowed: actions then queue until one comes).
        case execution(bots: Int)
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// `grpc://127.0.0.1:<port>`, or `grpcs://` with TLS.
    public var url: String { "\(usesTLS ? "grpcs" : "grpc")://127.0.0.1:\(port)" }
    /// The one instance name it serves.
    public let instance: String
    public let mode: Mode
    /// Its folder: `bgd.yml`, `bgd.log`, `cas/`, `migrate.log`, and per bot `botK.log` and `botK/` (K from 0).
    public let workFolder: URL
    /// What `bgd` has logged so far.
    public var log: String { (try? String(contentsOf: workFolder.appendingPathComponent("bgd.log"), encoding: .utf8)) ?? "" }
    /// How many bots it was started with.
    public var botCount: Int { bots.count }

    private let usesTLS: Bool
    private let process: Process
    private let bots: [Process]
    private let postgres: PostgresServer?

    /// Starts BuildGrid (and, for execution, PostgreSQL and the bots) and waits until it listens and
    /// every bot has registered.
    /// - Parameters:
    ///   - instance: the REAPI instance name it serves (`""` by default).
    ///   - tls: PEM certificate and key files: serve TLS (`grpcs://`). The certificate must name
    ///     127.0.0.1 (e.g. `subjectAltName=IP:127.0.0.1`). Cache-only: the bots speak neither TLS nor JWT.
    ///   - jwtSecretFile: require `authorization: Bearer <HS256 JWT with exp>` signed with this file's
    ///     contents (stripped of surrounding whitespace); anything else is `UNAUTHENTICATED`. Cache-only.
    ///   - botKeepalive: seconds a silent bot keeps its leases; after that they are requeued (so an
    ///     action whose bot was killed reruns on another bot).
    public init(mode: Mode = .cacheOnly, instance: String = "", tls: (cert: String, key: String)? = nil,
                jwtSecretFile: String? = nil, botKeepalive: Int = 30) throws {
        let servers = try ReapiServers.installation
        if case .execution = mode, tls != nil || jwtSecretFile != nil {
            throw TestServerError("BuildGridServer: TLS and JWT are for .cacheOnly; the test bots speak neither")
        }
        self.mode = mode
        self.instance = instance
        usesTLS = tls != nil
        workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-buildgrid-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workFolder.appendingPathComponent("cas"), withIntermediateDirectories: true)

        var postgres: PostgresServer?
        var started: Process?
        do {
            var database: String?
            var botCount = 0
            if case .execution(let count) = mode {
                botCount = count
                let server = try PostgresServer()
                postgres = server
                database = try Self.migrate(server, servers: servers, folder: workFolder)
            }
            let (port, process) = try Self.startBuildGrid(servers: servers, folder: workFolder, instance: instance, tls: tls,
                                                          jwtSecretFile: jwtSecretFile, database: database, botKeepalive: botKeepalive)
            started = process
            bots = try Self.startBots(botCount, port: port, instance: instance, servers: servers, folder: workFolder)
            self.port = port
            self.process = process
            self.postgres = postgres
        } catch {
            if let started { Self.kill(started) }
            postgres?.stop()
            try? FileManager.default.removeItem(at: workFolder)
            throw error
        }
    }

    /// Stops the bots, BuildGrid and PostgreSQL, and removes the work folder. Safe to call twice, and
    /// after `kill()`. Bots and `bgd` get SIGKILL: nothing of theirs is kept, and BuildGrid's graceful
    /// shutdown takes seconds (a bot's, up to its 5 s long poll).
    public func stop() {
        (bots + [process]).forEach(Self.kill)
        postgres?.stop()
        try? FileManager.default.removeItem(at: workFolder)
    }

    /// SIGKILL to `bgd` alone, as if the server died mid-build (bots and PostgreSQL keep running until `stop()`).
    public func kill() { Self.kill(process) }

    /// SIGKILL to bot `index` (from 0): its leases are requeued after `botKeepalive` seconds.
    public func killBot(_ index: Int) { Self.kill(bots[index]) }

    /// What bot `index` (from 0) has logged: one line per action it ran.
    public func botLog(_ index: Int) -> String {
        (try? String(contentsOf: workFolder.appendingPathComponent("bot\(index).log"), encoding: .utf8)) ?? ""
    }

    /// Whether `bgd` is still running.
    public var isRunning: Bool { process.isRunning }

    deinit { stop() }

    /// Creates BuildGrid's tables in `postgres` (`bgd migrate apply`, alembic); returns its URL.
    private static func migrate(_ postgres: PostgresServer, servers: ReapiServers, folder: URL) throws -> String {
        let url = "postgresql://\(postgres.user)@127.0.0.1:\(postgres.port)/\(postgres.database)"
        let (status, output) = try ServerProcess.run(servers.bgd, ["migrate", "apply", url], timeout: 60)
        try? output.write(to: folder.appendingPathComponent("migrate.log"), atomically: true, encoding: .utf8)
        guard status == 0 else { throw TestServerError("bgd migrate apply \(url) exited \(status): \(output.suffix(3_000))") }
        return url
    }

    /// Starts `bgd server start` on a free port and waits until it listens; retries on another port.
    private static func startBuildGrid(servers: ReapiServers, folder: URL, instance: String, tls: (cert: String, key: String)?,
                                       jwtSecretFile: String?, database: String?, botKeepalive: Int) throws -> (Int, Process) {
        let log = folder.appendingPathComponent("bgd.log")
        let configuration = folder.appendingPathComponent("bgd.yml")
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            try Self.configuration(port: port, instance: instance, folder: folder, tls: tls, jwtSecretFile: jwtSecretFile,
                                   database: database, botKeepalive: botKeepalive)
                .write(to: configuration, atomically: true, encoding: .utf8)
            let process = try ServerProcess.start(servers.bgd, ["server", "start", "-v", configuration.path], in: folder, log: log)
            do {
                // Python imports make most of its start-up: about 3 s on an idle machine.
                if try ServerProcess.waitUntilListening(port, process: process, timeout: 60, name: "BuildGrid", log: log) {
                    return (port, process)
                }
            } catch {
                Self.kill(process)
                throw error
            }
        }
        throw TestServerError("BuildGrid found each of 5 free ports taken when it bound it. \(ServerProcess.tail(log))")
    }

    /// Starts `count` rwapi-bot.py workers and waits until BuildGrid has registered each.
    private static func startBots(_ count: Int, port: Int, instance: String, servers: ReapiServers, folder: URL) throws -> [Process] {
        var bots: [Process] = []
        do {
            for index in 0..<count {
                // Its actions' temporary folders go in botK/, removed with the work folder.
                let botFolder = folder.appendingPathComponent("bot\(index)", isDirectory: true)
                try FileManager.default.createDirectory(at: botFolder, withIntermediateDirectories: true)
                bots.append(try ServerProcess.start(
                    servers.python,
                    [ReapiServers.fixtures.appendingPathComponent("rwapi-bot.py").path, "--target", "127.0.0.1:\(port)",
                     "--instance", instance, "--bot-id", "tessera-bot-\(index)-\(UUID().uuidString.prefix(8))"],
                    in: botFolder, log: folder.appendingPathComponent("bot\(index).log"), environment: ["TMPDIR": botFolder.path]))
            }
            for (index, bot) in bots.enumerated() {
                let log = folder.appendingPathComponent("bot\(index).log")
                let registered = ServerProcess.wait(until: {
                    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("[bot] session")
                }, while: bot, timeout: 20)
                guard registered else {
                    throw TestServerError("BuildGrid bot \(index) did not register within 20 s. \(ServerProcess.tail(log)) "
                                          + ServerProcess.tail(folder.appendingPathComponent("bgd.log")))
                }
            }
            return bots
        } catch {
            bots.forEach(Self.kill)
            throw error
        }
    }

    /// SIGKILL, and waits for the exit.
    private static func kill(_ process: Process) {
        ServerProcess.signal(SIGKILL, to: process)
        process.waitUntilExit()
    }

    private static func configuration(port: Int, instance: String, folder: URL, tls: (cert: String, key: String)?,
                                      jwtSecretFile: String?, database: String?, botKeepalive: Int) -> String {
        let channel = tls.map {
            """
                insecure-mode: false
                credentials:
                  tls-server-key: \($0.key)
                  tls-server-cert: \($0.cert)
            """
        } ?? "    insecure-mode: true"
        let authorization = jwtSecretFile.map {
            """
              method: jwt
              secret: \($0)
              algorithm: hs256
            """
        } ?? "  method: none"
        var yaml = """
        description: Tessera test BuildGrid
        server:
          - !channel
            address: "127.0.0.1:\(port)"
        \(channel)
        authorization:
        \(authorization)
        thread-pool-size: 20
        storages:
          - !disk-storage &main-storage
            path: \(folder.appendingPathComponent("cas").path)
        caches:
          - !lru-action-cache &main-action
            storage: *main-storage
            max-cached-refs: 100000
            allow-updates: true
            cache-failed-actions: true

        """
        if let database {
            // Short server-side waits: the test bots poll with short deadlines too.
            yaml += """
            connections:
              - !sql-connection &sql
                connection-string: \(database)
                pool-size: 10
                max-overflow: 10
            schedulers:
              - !sql-scheduler &scheduler
                sql: *sql
                storage: *main-storage
                action-cache: *main-action
                poll-interval: 0.2
                job-assignment-interval: 0.1
                bot-session-keepalive-timeout: \(botKeepalive)
                property-set: !dynamic-property-set
                  match-property-keys: [OSFamily, ISA]
                  wildcard-property-keys: [container-image, tessera-batch]

            """
        }
        yaml += """
        instances:
          - name: "\(instance)"
            services:
              - !action-cache
                cache: *main-action
              - !cas
                storage: *main-storage
              - !bytestream
                storage: *main-storage

        """
        if database != nil {
            yaml += """
                  - !execution
                    scheduler: *scheduler
                    operation-stream-keepalive-timeout: 5

            """
        }
        return yaml
    }
}
