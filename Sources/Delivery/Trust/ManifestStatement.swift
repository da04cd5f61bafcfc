import Foundation
import TesseraCore

/// What a signing key says about one manifest: its SHA-256 and size (so the signature covers the
/// exact bytes served), the channel it is for, a version that only grows, and when it expires.
/// JSON payload: `{"channel": "…", "expires": "…", "manifest": {"sha256": "…", "size": N}, "version": N}`.
public struct ManifestStatement: TrustDocument {
    public static let payloadType = "application/vnd.tessera.manifest-statement+json"
    public var channel: String
    public var version: Int
    /// RFC 3339 in UTC, whole seconds (`TrustTime`).
    public var expires: String
    public var manifest: SignedFile

    /// The bytes a statement covers.
    public struct SignedFile: Sendable, Codable, Equatable {
        public var sha256: ContentHash
        public var size: Int

        public init(sha256: ContentHash, size: Int) {
            self.sha256 = sha256
            self.size = size
        }
    }

    public init(channel: String, version: Int, expires: String, manifest: SignedFile) {
        self.channel = channel
        self.version = version
        self.expires = expires
        self.manifest = manifest
    }

    public var violation: String? {
        guard version >= 1 else { return "manifest version \(version) is not 1 or more" }
        guard TrustTime.parse(expires) != nil else { return "manifest v\(version): expiry '\(expires)' is not RFC 3339 UTC" }
        return manifest.size >= 0 ? nil : "manifest size \(manifest.size)"
    }
}
