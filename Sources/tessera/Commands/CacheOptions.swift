import ArgumentParser
import BuildCache
import Foundation
import RemoteAPI
import TesseraCore

/// The cache options `run` shares: where the local cache is, and a remote one.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp(
        "The local build cache folder (default: $TESSERA_CACHE_DIR, else ~/.cache/tessera).", valueName: "dir"))
    var folder: String?

    @Flag(help: "Build everything, reading and writing no cache.")
    var noCache = false

    @Option(help: ArgumentHelp("""
        A remote cache to read and fill: http(s)://… speaks Bazel's HTTP protocol (GET/PUT {url}/ac/…, \
        {url}/cas/…), grpc://HOST:PORT or grpcs://HOST:PORT the Remote Execution API; credentials from \
        TESSERA_REMOTE_CACHE_TOKEN (Bearer), TESSERA_REMOTE_CACHE_API_KEY (x-buildbuddy-api-key) or \
        TESSERA_REMOTE_CACHE_USER and TESSERA_REMOTE_CACHE_PASSWORD (Basic).
        """, valueName: "url"))
    var remoteCache: String?

    @Option(help: ArgumentHelp("The REAPI instance name of a grpc:// or grpcs:// remote cache and executor (by default none: the server's main instance).",
                               valueName: "name"))
    var remoteInstance: String?

    @Option(help: ArgumentHelp("A header every remote cache and executor request carries, as NAME=VALUE (repeatable; gRPC metadata or an HTTP header).",
                               valueName: "name=value"))
    var remoteHeader: [String] = []

    @Option(help: ArgumentHelp("A PEM file of the CA certificates a grpcs:// remote cache's or executor's certificate is checked against, instead of the system's.",
                               valueName: "pem"))
    var remoteTlsCa: String?

    @Flag(help: "Read the remote cache but never write to it (pull requests).")
    var remoteCacheReadOnly = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp("""
        Store a complete build's results in the remote cache as one pack, in a few requests, which a \
        fresh checkout of the same sources fetches in a few more; without, each job stores its own \
        entry as it finishes (docs/caching.md).
        """))
    var remoteCachePacks = true

    func validate() throws {
        if noCache, folder != nil || remoteCache != nil {
            throw ValidationError("--no-cache cannot be combined with --cache or --remote-cache")
        }
        if let remoteCache {
            guard let url = URL(string: remoteCache), let scheme = url.scheme?.lowercased(),
                  ["http", "https", "grpc", "grpcs"].contains(scheme), let host = url.host, !host.isEmpty else {
                throw ValidationError("--remote-cache must be an http://, https://, grpc:// or grpcs:// URL, not '\(remoteCache)'")
            }
            if scheme.hasPrefix("grpc"), !url.path.isEmpty, url.path != "/" {
                throw ValidationError("--remote-cache: a grpc:// URL is HOST:PORT alone (the instance name is --remote-instance), not '\(remoteCache)'")
            }
            if !scheme.hasPrefix("grpc"), remoteInstance != nil {
                throw ValidationError("--remote-instance applies to a grpc:// or grpcs:// remote cache, not to '\(remoteCache)'")
            }
            if remoteTlsCa != nil, scheme != "grpcs" {
                throw ValidationError("--remote-tls-ca applies to a grpcs:// remote cache, not to '\(remoteCache)'")
            }
        }
        _ = try headers(from: [:])
        if let remoteTlsCa, !FileManager.default.isReadableFile(atPath: remoteTlsCa) {
            throw ValidationError("--remote-tls-ca: cannot read '\(remoteTlsCa)'")
        }
    }

    /// The headers every remote cache request carries: `--remote-header`s, and BuildBuddy's API
    /// key from `TESSERA_REMOTE_CACHE_API_KEY` (the `authorization` header is `RemoteCache.authorization`).
    func headers(from environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var headers: [String: String] = [:]
        if let key = environment["TESSERA_REMOTE_CACHE_API_KEY"], !key.isEmpty { headers["x-buildbuddy-api-key"] = key }
        for header in remoteHeader {
            guard let equals = header.firstIndex(of: "="), equals != header.startIndex else {
                throw ValidationError("--remote-header must be NAME=VALUE, not '\(header)'")
            }
            let name = String(header[..<equals]).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw ValidationError("--remote-header: '\(name)' is not a header name (letters, digits, '-', '_', '.')")
            }
            headers[name.lowercased()] = String(header[header.index(after: equals)...])
        }
        return headers
    }

    var cacheFolder: CacheFolder {
        folder.map(CacheFolder.init(path:)) ?? CacheFolder.defaultLocation()
    }

    /// The options that shape a remote server's requests need a server to apply to: `--remote-cache`,
    /// or (`run`) `--remote-executor`, which shares them.
    func checkServer(_ executor: String? = nil) throws {
        if remoteCache == nil, executor == nil, remoteCacheReadOnly {
            throw ValidationError("--remote-cache-read-only needs --remote-cache or --remote-executor")
        }
        if remoteCache == nil, executor == nil, remoteInstance != nil || !remoteHeader.isEmpty || remoteTlsCa != nil {
            throw ValidationError("--remote-instance, --remote-header and --remote-tls-ca need --remote-cache or --remote-executor")
        }
    }

    /// The cache the run uses, or nil with `--no-cache`. Without `--remote-cache`, `defaultRemote`
    /// (the remote executor's server) is the remote cache.
    func open(defaultRemote: String? = nil) throws(TesseraError) -> BuildCache? {
        guard !noCache else { return nil }
        let authentication = try EntryAuthentication.fromEnvironment()
        let remote = try (remoteCache ?? defaultRemote).map { url throws(TesseraError) in try self.remote(url, authentication: authentication) }
        return try BuildCache(folder: cacheFolder, remote: remote ?? nil)
    }

    /// The endpoint of the grpc:// or grpcs:// server at `url`, with the instance, headers and
    /// CA the options give; nil for any other scheme.
    func endpoint(_ url: String) throws(TesseraError) -> RemoteEndpoint? {
        guard var endpoint = RemoteEndpoint(url: url) else { return nil }
        do { endpoint.headers = try headers() } catch { throw TesseraError(.configuration, reason: "\(error)") }
        if let authorization = RemoteCache.authorization() { endpoint.headers["authorization"] = authorization }
        endpoint.instance = remoteInstance ?? ""
        endpoint.trustedCertificates = remoteTlsCa
        return endpoint
    }

    /// The remote cache at `url`, on the transport its scheme says.
    private func remote(_ address: String, authentication: EntryAuthentication?) throws(TesseraError) -> RemoteCache? {
        guard let url = URL(string: address) else { return nil }
        guard let endpoint = try endpoint(address) else {
            var headers: [String: String]
            do { headers = try self.headers() } catch { throw TesseraError(.configuration, reason: "\(error)") }
            return RemoteCache(base: url, readOnly: remoteCacheReadOnly, authorization: RemoteCache.authorization(), headers: headers,
                               storesPacks: remoteCachePacks, authentication: authentication)
        }
        do {
            return try RemoteCache.reapi(endpoint, readOnly: remoteCacheReadOnly, storesPacks: remoteCachePacks,
                                         authentication: authentication)
        } catch {
            throw TesseraError(.configuration, reason: "--remote-cache \(address): \(error.description)")
        }
    }
}
