import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `tessera` binary (the test run's debug build), for the suites that test it as users run it: `tessera serve` as a child process on a free loopback port, and
/// one-shot commands (`run`, `publish`, `query`, `channel`).
public final class ServeProcess: @unchecked Sendable {
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    public static var executable: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tessera").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return "\(packageRoot)/.build/debug/tessera"
    }
    public static let token = "live-token"

    public let folder: String
    public let port: Int
    private let process: Process
    public var url: String { "http://127.0.0.1:\(port)" }
    public var store: String { "\(folder)/store" }
    public var tokenFile: String { "\(folder)/token" }
    /// Its stdout and stderr (the request log).
    public var logPath: String { "\(folder)/serve-\(port).log" }

    /// Starts `tessera serve` over `folder`'s store (kept between restarts) and `catalog`
    /// (default: `sqlite:` in `folder`).
    /// `options`: more of `serve`'s options (limits, timeouts).
    public init(folder: String, catalog: String? = nil, options: [String] = []) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.token.write(toFile: "\(folder)/token", atomically: true, encoding: .utf8)
        var lastError: Error?
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["serve", "--database", catalog ?? "sqlite:\(folder)/catalog.sqlite", "--store", "\(folder)/store",
                                 "--port", "\(port)", "--token-file", "\(folder)/token"] + options
            let log = "\(folder)/serve-\(port).log"
            if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            do {
                try LoopbackPort.waitUntilListening(port, process: process, timeout: 30, name: "tessera serve",
                                                    log: URL(fileURLWithPath: log))
                self.port = port
                self.process = process
                return
            } catch {
                if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
                lastError = error
            }
        }
        throw lastError ?? TestServerError("tessera serve did not start")
    }

    /// SIGTERM: graceful shutdown; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// kill -9: no chance to clean up.
    public func crash() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public var isRunning: Bool { process.isRunning }

    /// The sockets the server holds open (its listening socket included), from /proc.
    public var openSockets: Int {
        let folder = "/proc/\(process.processIdentifier)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? "").hasPrefix("socket:")
        }.count
    }

    /// The server's resident memory in bytes, from `/proc`.
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    deinit { crash() }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `tessera ARGS` with its output in `log`, awaiting its exit without blocking a thread.
    public static func runDetached(_ arguments: [String], log: String) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// Runs `tessera ARGS` to completion; stderr is read on another thread while stdout is read
    /// here, so a chatty process never blocks on a full pipe.
    /// `addressSpaceLimit`: run under `prlimit --as`, so a regression that allocates without
    /// bound fails its test rather than the machine.
    public static func run(_ arguments: [String], environment: [String: String] = [:], addressSpaceLimit: Int? = nil) throws -> Result {
        let process = Process()
        if let addressSpaceLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--as=\(addressSpaceLimit)", "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = PipeReader(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension ServeProcess {
    /// `run`, awaited on a thread of its own (`TesseraProcess.run`'s async form says why).
    public static func run(_ arguments: [String], environment: [String: String] = [:], addressSpaceLimit: Int? = nil) async throws -> Result {
        try await OwnThread.run { try run(arguments, environment: environment, addressSpaceLimit: addressSpaceLimit) }
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
