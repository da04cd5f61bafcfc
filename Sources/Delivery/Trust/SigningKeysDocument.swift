import Foundation

/// The keys that may sign manifests, as the root signs them: with a version (never lower than
/// one a client accepted), an expiry, and the IDs of keys revoked. Rotating a signing key is a
/// new document listing the new key and revoking the old one.
/// JSON payload: `{"expires": "2027-01-01T00:00:00Z", "keys": [TrustKey…], "revoked": ["keyid"…], "version": N}`.
public struct SigningKeysDocument: TrustDocument {
    public static let payloadType = "application/vnd.tessera.signing-keys+json"
    public var version: Int
    /// RFC 3339 in UTC, whole seconds (`TrustTime`).
    public var expires: String
    public var keys: [TrustKey]
    public var revoked: [String]

    public init(version: Int, expires: String, keys: [TrustKey], revoked: [String]) {
        self.version = version
        self.expires = expires
        self.keys = keys
        self.revoked = revoked
    }

    public var violation: String? {
        guard version >= 1 else { return "signing keys version \(version) is not 1 or more" }
        guard TrustTime.parse(expires) != nil else { return "signing keys v\(version): expiry '\(expires)' is not RFC 3339 UTC" }
        return keys.lazy.compactMap(\.violation).first
    }
}
