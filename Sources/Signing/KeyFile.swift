import Crypto
import Delivery
import Foundation
import TesseraCore

/// An Ed25519 key pair as `tessera keys generate` writes it: `NAME.key` (the private key, mode
/// 0600: it stays with the publisher, never on a server) and `NAME.pub` (the public key, a
/// `TrustKey`). JSON of the private file: `{"keyid": "…", "private": "<base64, 32 bytes>", "public": "<base64>", "type": "ed25519-private"}`.
public struct KeyFile: Sendable, Codable {
    public static let privateType = "ed25519-private"
    public var type: String
    public var keyid: String
    public var privateKey: Data
    public var publicKey: Data

    enum CodingKeys: String, CodingKey {
        case type, keyid
        case privateKey = "private"
        case publicKey = "public"
    }

    /// A fresh key pair from the system's random source.
    public static func generate() -> KeyFile {
        KeyFile(Curve25519.Signing.PrivateKey())
    }

    init(_ key: Curve25519.Signing.PrivateKey) {
        type = Self.privateType
        privateKey = key.rawRepresentation
        publicKey = key.publicKey.rawRepresentation
        keyid = TrustKey.keyID(of: publicKey)
    }

    /// The public half, as documents list it.
    public var trustKey: TrustKey { TrustKey(publicKey: publicKey) }

    /// Writes `NAME.key` (0600) and `NAME.pub`, each atomically; refuses to replace a key file.
    public func write(stem: String) throws(TesseraError) {
        for path in [stem + ".key", stem + ".pub"] where FileManager.default.fileExists(atPath: path) {
            throw TesseraError(.configuration, file: path, origin: .publish, reason: "a key file is there already; keys are never overwritten")
        }
        try AtomicFile.write(try StableJSON.encode(self), to: stem + ".key", permissions: 0o600)
        try AtomicFile.write(try StableJSON.encode(trustKey), to: stem + ".pub")
    }

    /// Reads a private key file, checking that its halves belong together.
    public static func readPrivate(_ path: String) throws(TesseraError) -> KeyFile {
        let file = try StableJSON.decode(KeyFile.self, from: try read(path), source: path)
        guard file.type == privateType, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: file.privateKey),
              key.publicKey.rawRepresentation == file.publicKey, file.keyid == TrustKey.keyID(of: file.publicKey) else {
            throw TesseraError(.configuration, file: path, origin: .publish, reason: "not an Ed25519 private key file (tessera keys generate)")
        }
        return file
    }

    /// Reads a public key file (`NAME.pub`), or the public half of a private one.
    public static func readPublic(_ path: String) throws(TesseraError) -> TrustKey {
        if let key = try? StableJSON.decode(TrustKey.self, from: try read(path), source: path), key.violation == nil { return key }
        return try readPrivate(path).trustKey
    }

    /// Signs `message` (Ed25519).
    public func signature(over message: [UInt8]) throws(TesseraError) -> Data {
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: message)
        } catch {
            throw TesseraError(.internalFailure, origin: .publish, reason: "cannot sign with key \(keyid): \(error)")
        }
    }

    static func read(_ path: String) throws(TesseraError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .publish, reason: "cannot read the file")
        }
        return Array(data)
    }
}
