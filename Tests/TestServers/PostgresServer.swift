import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL (Debian's `postgresql`) in a temporary data folder on a free loopback port.
///
/// `initdb` and `postgres` refuse to run as root, so as root both run as the `postgres` user the
/// Debian package creates, through `runuser`. Authentication is `trust` on loopback only; the
/// superuser is `postgres` and one database, `tessera`, is created.
public final class PostgresServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The database created for the test.
    public let database = "tessera"
    /// The superuser name.
    public let user = "postgres"
    /// `postgres://postgres@127.0.0.1:<port>/tessera`
    public var url: String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    private let folder: URL
    private let binaries: URL
    private let process: Process

    /// Runs `initdb`, starts `postgres`, waits until it accepts connections and creates the database.
    public init() throws {
        binaries = try Self.findBinaries()
        folder = URL(fileURLWithPath: "/tmp", isDirectory: true)
            .appendingPathComponent("tessera-pg-\(UUID().uuidString)", isDirectory: true)
        let data = folder.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { try Self.run("/bin/chown", ["-R", "postgres:postgres", folder.path], asPostgres: false) }
        try Self.run(binaries.appendingPathComponent("initdb").path,
                     ["-D", data.path, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync", "-N"],
                     asPostgres: asRoot)
        var lastError: Error?
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let log = folder.appendingPathComponent("postgres.log")
            let process = Self.process(binaries.appendingPathComponent("postgres").path,
                                       ["-D", data.path, "-p", "\(port)", "-k", folder.path,
                                        "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                        "-c", "logging_collector=off"],
                                       asPostgres: asRoot)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let logHandle = try FileHandle(forWritingTo: log)
            process.standardOutput = logHandle
            process.standardError = logHandle
            try process.run()
            do {
                try LoopbackPort.waitUntilListening(port, process: process, timeout: 30, name: "postgres", log: log)
                // Listening is not the same as accepting logins yet; createdb retries until it is.
                try Self.createDatabase(binaries: binaries, port: port, socketFolder: folder, asPostgres: asRoot)
                self.port = port
                self.process = process
                return
            } catch {
                if process.isRunning { kill(process.processIdentifier, SIGINT); process.waitUntilExit() }
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? TestServerError("postgres did not start")
    }

    /// Stops the server (fast shutdown) and removes its data folder. Safe to call twice.
    public func stop() {
        if process.isRunning {
            // SIGINT is PostgreSQL's fast shutdown; through runuser it reaches postgres too.
            kill(process.processIdentifier, SIGINT)
            if let pid = postmasterPID() { kill(pid, SIGINT) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    private func postmasterPID() -> pid_t? {
        let file = folder.appendingPathComponent("data/postmaster.pid")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let line = text.split(separator: "\n").first else { return nil }
        return pid_t(line.trimmingCharacters(in: .whitespaces))
    }

    private static func findBinaries() throws -> URL {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql", isDirectory: true)
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = base.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("postgres").path) { return bin }
        }
        throw TestServerError("PostgreSQL not found under /usr/lib/postgresql: run scripts/ensure-system-packages.sh")
    }

    private static func createDatabase(binaries: URL, port: Int, socketFolder: URL, asPostgres: Bool) throws {
        var lastError: Error?
        for _ in 0..<50 {
            do {
                try run(binaries.appendingPathComponent("createdb").path,
                        ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "tessera"], asPostgres: asPostgres)
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        throw lastError ?? TestServerError("createdb failed")
    }

    private static func process(_ executable: String, _ arguments: [String], asPostgres: Bool) -> Process {
        let process = Process()
        if asPostgres {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "postgres", "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        return process
    }

    private static func run(_ executable: String, _ arguments: [String], asPostgres: Bool) throws {
        let process = process(executable, arguments, asPostgres: asPostgres)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestServerError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                                  + String(decoding: printed, as: UTF8.self))
        }
    }
}
