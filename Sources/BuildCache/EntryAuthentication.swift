import Crypto
import Foundation
import TesseraCore

/// Remote entries that only holders of a secret key can write: with `TESSERA_REMOTE_CACHE_KEY`
/// set, every `/ac/` entry Tessera stores carries an HMAC-SHA256 of its key and record, and an
/// entry without a valid one is a miss. A plain Bazel cache trusts whoever can write it (anyone
/// who can PUT `/ac/` decides the outputs of every build that reads it); with a key, only the
/// trusted writers (CI on the main branch) do, and a pull request's build — with the cache but
/// not the key — can neither plant an entry nor make a keyed build believe one (docs/caching.md).
///
/// Blobs need no MAC: they are named by their SHA-256 and checked on download, and an entry names
/// the blobs it uses, so authenticating the entry authenticates what it restores.
public struct EntryAuthentication: Sendable {
    /// The secret's bytes (SymmetricKey is not Sendable; one is made per MAC).
    private let secret: [UInt8]

    /// A key of at least 16 bytes (32 random bytes, base64 or hex, are what `docs/caching.md`
    /// suggests making).
    public init?(secret text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16 else { return nil }
        secret = bytes
    }

    /// From `TESSERA_REMOTE_CACHE_KEY`; nil when unset. A key that is set but too short is an error:
    /// a typo must not silently turn authentication off.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(TesseraError) -> EntryAuthentication? {
        guard let secret = environment["TESSERA_REMOTE_CACHE_KEY"], !secret.isEmpty else { return nil }
        guard let made = EntryAuthentication(secret: secret) else {
            throw TesseraError(.configuration, origin: .cache,
                               reason: "TESSERA_REMOTE_CACHE_KEY is \(secret.utf8.count) bytes; use at least 16 (e.g. `openssl rand -hex 32`)")
        }
        return made
    }

    /// The MAC of the record stored under `entryKey`, as lowercase hex (what the entry carries).
    func mac(of record: [UInt8], under entryKey: ContentHash) -> [UInt8] {
        var message = Array("tessera-ac-v1\n\(entryKey.hex)\n".utf8)
        message += record
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret))
        return Array(Data(code).map { String(format: "%02x", $0) }.joined().utf8)
    }

    /// Whether `carried` is the MAC of `record` under `entryKey` (compared in constant time).
    func accepts(_ carried: [UInt8]?, of record: [UInt8], under entryKey: ContentHash) -> Bool {
        guard let carried else { return false }
        let expected = mac(of: record, under: entryKey)
        guard carried.count == expected.count else { return false }
        return zip(carried, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
