import ArgumentParser
import BuildCache
import Foundation
import TesseraCore

/// The cache options `run` shares: where the local cache is, and a remote one.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp(
        "The local build cache folder (default: $TESSERA_CACHE_DIR, else ~/.cache/tessera).", valueName: "dir"))
    var folder: String?

    @Flag(help: "Build everything, reading and writing no cache.")
    var noCache = false

    @Option(help: ArgumentHelp("""
        A Bazel HTTP remote cache to read and fill (GET/PUT {url}/ac/…, {url}/cas/…); credentials from \
        TESSERA_REMOTE_CACHE_TOKEN (Bearer) or TESSERA_REMOTE_CACHE_USER and TESSERA_REMOTE_CACHE_PASSWORD (Basic).
        """, valueName: "url"))
    var remoteCache: String?

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
            guard let url = URL(string: remoteCache), let scheme = url.scheme, ["http", "https"].contains(scheme),
                  url.host != nil else {
                throw ValidationError("--remote-cache must be an http:// or https:// URL, not '\(remoteCache)'")
            }
        }
        if remoteCacheReadOnly, remoteCache == nil {
            throw ValidationError("--remote-cache-read-only needs --remote-cache")
        }
    }

    var cacheFolder: CacheFolder {
        folder.map(CacheFolder.init(path:)) ?? CacheFolder.defaultLocation()
    }

    /// The cache the run uses, or nil with `--no-cache`.
    func open() throws(TesseraError) -> BuildCache? {
        guard !noCache else { return nil }
        let authentication = try EntryAuthentication.fromEnvironment()
        let remote = remoteCache.flatMap(URL.init(string:)).map {
            RemoteCache(base: $0, readOnly: remoteCacheReadOnly, authorization: RemoteCache.authorization(),
                        storesPacks: remoteCachePacks, authentication: authentication)
        }
        return try BuildCache(folder: cacheFolder, remote: remote)
    }
}
