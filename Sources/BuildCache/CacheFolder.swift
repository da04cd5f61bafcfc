import Foundation
import TesseraCore

/// Where a cache lives and how its folder is laid out:
///
///     ac/<2 hex>/<cache key>     action entries (`ActionEntry`), one per job result
///     cas/<2 hex>/<sha256>       blobs, named by the SHA-256 of their bytes
///     packs/<pack key>           result packs a run restored from (`ResultPack`): one file
///                                standing for the entries of thousands of jobs
///     plans/<record key>         records a caller keeps by key (`JobCache.record`): a build's
///                                plan, by its inputs
///     tmp/                       files being written; renamed into place when complete
///     fingerprints               the `FingerprintIndex` of files already hashed
///
/// Every file appears under its final name only by `rename`, so concurrent runs sharing the
/// folder see complete files or none; every read is checked against a hash.
public struct CacheFolder: Sendable {
    public let path: String

    public init(path: String) {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    /// `$TESSERA_CACHE_DIR`, else `$XDG_CACHE_HOME/tessera`, else `~/.cache/tessera`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> CacheFolder {
        if let explicit = environment["TESSERA_CACHE_DIR"], !explicit.isEmpty { return CacheFolder(path: explicit) }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return CacheFolder(path: "\(xdg)/tessera") }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return CacheFolder(path: "\(home)/.cache/tessera")
    }

    func blob(_ hash: ContentHash) -> String {
        let hex = hash.hex
        return "\(path)/cas/\(hex.prefix(2))/\(hex)"
    }

    func action(_ key: ContentHash) -> String {
        let hex = key.hex
        return "\(path)/ac/\(hex.prefix(2))/\(hex)"
    }

    func pack(_ key: ContentHash) -> String {
        "\(path)/packs/\(key.hex)"
    }

    func plan(_ key: ContentHash) -> String {
        "\(path)/plans/\(key.hex)"
    }

    var packs: String { "\(path)/packs" }
    var plans: String { "\(path)/plans" }
    var temporary: String { "\(path)/tmp" }
    var fingerprints: String { "\(path)/fingerprints" }
    var lock: String { "\(path)/lock" }

    /// Creates the folder's skeleton; throws naming the folder when it cannot be written.
    func prepare() throws(TesseraError) {
        do {
            for folder in ["ac", "cas", "packs", "plans", "tmp"] {
                try FileManager.default.createDirectory(atPath: "\(path)/\(folder)", withIntermediateDirectories: true)
            }
        } catch {
            throw TesseraError(.configuration, file: path, reason: "cannot create the cache folder: \(error.localizedDescription)")
        }
    }
}
