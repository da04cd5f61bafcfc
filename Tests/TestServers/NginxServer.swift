import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx (Debian's `nginx-light`) on a free loopback port, serving one folder.
///
/// With `webDAV` it also accepts `PUT`/`DELETE` into that folder, creating parent folders, which
/// is what the Bazel HTTP remote-cache protocol needs. Everything it writes (config, logs,
/// temporary bodies) lives in its own temporary folder, removed by `stop()`.
public final class NginxServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The folder it serves (and, with WebDAV, writes into).
    public let root: URL
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let process: Process
    private let workFolder: URL

    /// The nginx binary the set-up script installs.
    public static let binary = URL(fileURLWithPath: "/usr/sbin/nginx")

    /// Starts nginx serving `root`; waits until it accepts connections.
    /// - Parameter extraServerDirectives: lines added inside the `server { }` block.
    public init(serving root: URL, webDAV: Bool = false, extraServerDirectives: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw TestServerError("\(Self.binary.path) not found: run scripts/ensure-system-packages.sh (nginx-light)")
        }
        self.root = root
        workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-nginx-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        var lastError: Error?
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let config = Self.configuration(port: port, root: root, work: workFolder, webDAV: webDAV,
                                            extra: extraServerDirectives)
            let configFile = workFolder.appendingPathComponent("nginx.conf")
            try config.write(to: configFile, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = Self.binary
            process.arguments = ["-p", workFolder.path, "-c", configFile.path, "-e", workFolder.appendingPathComponent("error.log").path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            do {
                try LoopbackPort.waitUntilListening(port, process: process, timeout: 10, name: "nginx",
                                                    log: workFolder.appendingPathComponent("error.log"))
                self.port = port
                self.process = process
                return
            } catch {
                // Most likely another process took the port between choosing and binding it.
                if process.isRunning { process.terminate(); process.waitUntilExit() }
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: workFolder)
        throw lastError ?? TestServerError("nginx did not start")
    }

    /// Stops nginx (fast shutdown, by pid) and removes its work folder. Safe to call twice.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: workFolder)
    }

    deinit { stop() }

    private static func configuration(port: Int, root: URL, work: URL, webDAV: Bool, extra: [String]) -> String {
        // As root, nginx's workers would run as `nobody` and could not write the test's folders.
        let user = getuid() == 0 ? "user root root;\n" : ""
        let dav = webDAV ? """
                dav_methods PUT DELETE;
                create_full_put_path on;
                dav_access user:rw group:rw all:r;
        """ : ""
        return """
        \(user)daemon off;
        master_process on;
        worker_processes 1;
        pid \(work.path)/nginx.pid;
        events { worker_connections 512; }
        http {
            access_log off;
            default_type application/octet-stream;
            client_body_temp_path \(work.path)/body;
            proxy_temp_path \(work.path)/proxy;
            fastcgi_temp_path \(work.path)/fastcgi;
            uwsgi_temp_path \(work.path)/uwsgi;
            scgi_temp_path \(work.path)/scgi;
            client_max_body_size 0;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
        \(dav)
        \(extra.map { "        \($0)" }.joined(separator: "\n"))
            }
        }

        """
    }
}
