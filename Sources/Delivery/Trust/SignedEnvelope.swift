import Foundation
import TesseraCore

/// A signed document: the payload's exact bytes, the kind of document they are, and signatures
/// over both (DSSE's pre-authentication encoding, `preAuthenticationEncoding`).
///
/// The bytes are signed as they are, so checking a signature never re-encodes JSON (no canonical
/// form to get wrong: what was signed is what is decoded), and the payload type is inside what is
/// signed, so a root key's signature over a keys document cannot pass for a manifest statement.
/// JSON: `{"payloadType": "…", "payload": "<base64>", "signatures": [{"keyid": "…", "sig": "<base64>"}]}`.
public struct SignedEnvelope: Sendable, Codable, Equatable {
    public var payloadType: String
    public var payload: Data
    public var signatures: [Signature]

    /// One key's Ed25519 signature over `preAuthenticationEncoding`.
    public struct Signature: Sendable, Codable, Equatable {
        /// The signing key's ID (`TrustKey.keyID(of:)`).
        public var keyid: String
        public var sig: Data

        public init(keyid: String, sig: Data) {
            self.keyid = keyid
            self.sig = sig
        }
    }

    public init(payloadType: String, payload: Data, signatures: [Signature] = []) {
        self.payloadType = payloadType
        self.payload = payload
        self.signatures = signatures
    }

    /// What each signature covers: `DSSEv1 <len(type)> <type> <len(payload)> <payload>`, lengths
    /// in decimal ASCII. The lengths make the split between type and payload unambiguous.
    public var preAuthenticationEncoding: [UInt8] {
        Self.preAuthenticationEncoding(type: payloadType, payload: payload)
    }

    public static func preAuthenticationEncoding(type: String, payload: Data) -> [UInt8] {
        var bytes = Array("DSSEv1 \(type.utf8.count) \(type) \(payload.count) ".utf8)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// The IDs of the keys among `keys` whose signature here is valid, each counted once: what a
    /// threshold is compared with. Each listed key is tried once, on the first signature naming
    /// it: 6,000 altered copies of one genuine signature under its key ID cost one check, not
    /// 6,000 (seconds of CPU per manifest, issue 54).
    public func keysThatSigned(among keys: [TrustKey]) -> Set<String> {
        let message = preAuthenticationEncoding
        var valid: Set<String> = [], tried: Set<String> = []
        for signature in signatures where tried.insert(signature.keyid).inserted {
            if let key = keys.first(where: { $0.keyid == signature.keyid }), key.verifies(signature.sig, over: message) {
                valid.insert(key.keyid)
            }
        }
        return valid
    }
}
