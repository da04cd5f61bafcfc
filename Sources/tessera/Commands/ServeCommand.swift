import ArgumentParser
import Foundation
import Logging
import PublishedBuilds
import Serving
import TesseraCore

/// `tessera serve`: the catalog server (`docs/serving.md`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve published builds: manifest queries per channel and content-addressed bundles with ranges.")

    @Option(help: "The database of published builds and channels: sqlite:PATH (created on first start) or postgres://user@host:port/database.")
    var database: String?

    // `--catalog` before the build store stopped sharing a word with `.xcassets` catalogs.
    @Option(name: .customLong("catalog"), help: .private)
    var catalog: String?

    @Option(help: "The blob store folder (bundles and manifests by SHA-256).")
    var store: String

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "A file holding the bearer token writes need; without it, writes are refused.")
    var tokenFile: String?

    @Option(help: "The most connections open at once; at the cap, the one waiting longest for a request is closed for a newcomer. Default: the descriptor limit (raised to its hard limit) less 640.")
    var maxConnections: Int?

    @Option(help: "Seconds a connection may wait between requests, or between two reads of a request body.")
    var idleTimeout = 60

    @Option(help: "Seconds a request head may take once its first byte has arrived (slow clients cannot hold connections).")
    var headerTimeout = 10

    func validate() throws {
        guard (database == nil) != (catalog == nil) else {
            throw ValidationError(database == nil ? "give --database: sqlite:PATH or postgres://user@host:port/database"
                                                  : "--catalog is the deprecated name of --database; give one")
        }
        guard idleTimeout > 0, headerTimeout > 0 else { throw ValidationError("--idle-timeout and --header-timeout must be at least 1 second") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
    }

    func run() async throws {
        let service: BuildServer
        if catalog != nil { printError("warning: '--catalog' is deprecated; use '--database', which means the same") }
        do {
            let token = try tokenFile.map { path throws(TesseraError) in try ClientToken.read(path) }
            service = BuildServer(builds: try await BuildStoreLocation.open(database ?? catalog ?? ""), blobs: try BlobStore(root: store),
                                     configuration: ServerConfiguration(host: host, port: port, token: token,
                                                                        maxConnections: maxConnections, idleTimeoutSeconds: idleTimeout,
                                                                        headerTimeoutSeconds: headerTimeout))
        } catch {
            throw fail(error)
        }
        AllocatorSettings.applyForServing(environment: ProcessInfo.processInfo.environment)
        // One line per request, written in batches when requests log at once.
        let log = BufferedLogOutput()
        defer { log.flush() }
        try await service.application(log: log).runService()
    }
}

/// Reading a bearer token from a file, trimmed of surrounding white space.
enum ClientToken {
    static func read(_ path: String) throws(TesseraError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .serve, reason: "cannot read the token file")
        }
        // Bytes, never a lossy decoding: raw random bytes would all become U+FFFD, and a token
        // with other invalid bytes in the same places would then compare equal.
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw TesseraError(.configuration, file: path, origin: .serve, reason: "the token file is empty") }
        guard isBearerToken(token) else {
            throw TesseraError(.configuration, file: path, origin: .serve,
                               reason: "the token is not a bearer token (RFC 6750's token68: letters, digits and - . _ ~ + /, then any =); make one with `openssl rand -base64 32`")
        }
        return token
    }

    /// RFC 6750's `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isBearerToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, bytes.dropFirst(body.count).allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || Array("-._~+/".utf8).contains(byte)
        }
    }
}
