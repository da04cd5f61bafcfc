import Foundation
import TesseraCore

/// The file beside a signed manifest (`manifest.json.sig`; `tessera serve` answers it at the
/// channel manifest's URL + `.sig`): everything a client pinning a root needs to check it.
/// `roots` are the root documents after the first (each signed by the one before it and by
/// itself), oldest first, so a client pinning an older root follows rotations; `keys` is the
/// signing-keys document the newest root signed; `manifest` is the statement a signing key signed.
/// JSON: `{"format": 1, "keys": SignedEnvelope, "manifest": SignedEnvelope, "roots": [SignedEnvelope…]}`.
public struct ManifestSidecar: Sendable, Codable, Equatable {
    public static let currentFormat = 1
    /// What is appended to a manifest's name or URL to name its sidecar.
    public static let suffix = ".sig"
    /// A sidecar is a few kilobytes; anything past this is not one.
    public static let maxBytes = 1 << 20

    public var format: Int
    public var roots: [SignedEnvelope]
    public var keys: SignedEnvelope
    public var manifest: SignedEnvelope

    public init(roots: [SignedEnvelope], keys: SignedEnvelope, manifest: SignedEnvelope) {
        format = Self.currentFormat
        self.roots = roots
        self.keys = keys
        self.manifest = manifest
    }

    /// Reads a sidecar's JSON; `source` names it in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(TesseraError) -> ManifestSidecar {
        guard bytes.count <= maxBytes else {
            throw TesseraError(.untrusted, file: source, origin: .client, reason: "the signature file is over \(maxBytes >> 20) MiB")
        }
        let sidecar: ManifestSidecar
        do {
            sidecar = try StableJSON.decode(ManifestSidecar.self, from: bytes, source: source)
        } catch {
            throw TesseraError(.untrusted, file: source, origin: .client, reason: "not a Tessera signature file: \(error.reason)")
        }
        guard sidecar.format == currentFormat else {
            throw TesseraError(.untrusted, file: source, origin: .client, reason: "signature format \(sidecar.format) is not \(currentFormat)")
        }
        return sidecar
    }
}
