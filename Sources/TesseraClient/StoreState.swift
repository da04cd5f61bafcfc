import Delivery
import TesseraCore

/// What the local store knows, saved as one JSON file replaced atomically: the installed
/// bundles (by SHA-256, so a later build reusing a bundle reuses the download), their tags and
/// last use, and each tag's preservation priority.
struct StoreState: Codable, Sendable, Equatable {
    struct Installed: Codable, Sendable, Equatable {
        var bytes: Int
        var tags: [String]
        /// The store's use counter when the bundle was last accessed (higher: more recent).
        var lastUsed: Int
    }

    /// Keyed by the bundle's SHA-256 in hex.
    var bundles: [String: Installed] = [:]
    var preservationPriority: [String: Double] = [:]
    var useCounter = 0

    /// A bundle's priority is its highest tag's: it stays while any tag holding it is worth keeping.
    func priority(of bundle: Installed) -> Double {
        bundle.tags.map { preservationPriority[$0] ?? 0 }.max() ?? 0
    }
}
