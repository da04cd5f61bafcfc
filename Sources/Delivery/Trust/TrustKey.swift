import Crypto
import Foundation
import TesseraCore

/// An Ed25519 public key and its ID, as root and keys documents list them.
/// JSON: `{"keyid": "<32 hex digits>", "public": "<base64 of the 32 raw bytes>"}`.
public struct TrustKey: Sendable, Codable, Equatable, Hashable {
    /// The first 16 bytes of the SHA-256 of the raw public key, in hex: short enough to read in
    /// an error, long enough that no two keys share one by chance.
    public var keyid: String
    public var publicKey: Data

    enum CodingKeys: String, CodingKey {
        case keyid
        case publicKey = "public"
    }

    public init(publicKey: Data) {
        self.publicKey = publicKey
        keyid = Self.keyID(of: publicKey)
    }

    /// A key's ID from its raw public bytes.
    public static func keyID(of publicKey: Data) -> String {
        ContentHash.of(publicKey).hex.prefix(32).lowercased()
    }

    /// Why the key cannot be used, or nil: 32 bytes that Ed25519 accepts, not a weak key
    /// (`WeakEd25519Keys`: small order, non-canonical), and the ID they give. Root and keys
    /// documents, key files and delegations are all checked by it, so no such key is created,
    /// delegated or loaded.
    public var violation: String? {
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey)) != nil else {
            return "key \(keyid) is not a 32-byte Ed25519 public key"
        }
        if let weakness = WeakEd25519Keys.weakness(of: publicKey) { return "key \(keyid) is \(weakness)" }
        guard keyid == Self.keyID(of: publicKey) else { return "key \(keyid)'s ID is not its public key's (\(Self.keyID(of: publicKey)))" }
        return nil
    }

    /// True when `signature` is this key's Ed25519 signature over `message`; never for a weak key,
    /// whatever document listed it.
    public func verifies(_ signature: Data, over message: [UInt8]) -> Bool {
        guard WeakEd25519Keys.weakness(of: publicKey) == nil,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
