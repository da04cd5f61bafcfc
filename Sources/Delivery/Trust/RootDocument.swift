import Foundation

/// The root of trust: the keys that sign the signing-keys document, how many of them must
/// (`threshold`), and a version. An app pins one (`TrustedRoot`); a new root (version + 1) is
/// trusted when `threshold` keys of the old root AND `threshold` keys of the new one signed it,
/// so neither a lost nor a stolen minority of root keys can move the root on its own.
/// JSON payload: `{"keys": [TrustKey…], "threshold": N, "version": N}`.
public struct RootDocument: TrustDocument {
    public static let payloadType = "application/vnd.tessera.root+json"
    public var version: Int
    public var keys: [TrustKey]
    public var threshold: Int

    public init(version: Int, keys: [TrustKey], threshold: Int) {
        self.version = version
        self.keys = keys
        self.threshold = threshold
    }

    public var violation: String? {
        guard version >= 1 else { return "root version \(version) is not 1 or more" }
        guard !keys.isEmpty, (1...keys.count).contains(threshold) else {
            return "root v\(version): threshold \(threshold) of \(keys.count) keys"
        }
        guard Set(keys.map(\.keyid)).count == keys.count else { return "root v\(version) lists a key twice" }
        return keys.lazy.compactMap(\.violation).first
    }
}
