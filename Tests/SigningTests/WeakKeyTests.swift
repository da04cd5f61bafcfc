import Crypto
import Delivery
import Foundation
import Signing
import TesseraCore
import Testing

/// Small-order and non-canonical Ed25519 keys are refused wherever a key is made, delegated,
/// loaded or used (issue 54, item 5).
@Suite("Weak Ed25519 keys")
struct WeakKeyTests {
    /// An order-8 point: with it, (R = the identity, S = 0) verifies every message whose hash is a
    /// multiple of 8, about one in eight.
    static let orderEight = Data([0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
                                  0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a])
    static let forged = Data([1] + [UInt8](repeating: 0, count: 63))

    @Test("the forgery is real on this platform's Ed25519, and TrustKey refuses the key and every forged signature")
    func smallOrderKeyForges() throws {
        let raw = try Curve25519.Signing.PublicKey(rawRepresentation: Self.orderEight)
        let messages = (0..<64).map { Array("manifest statement \($0)".utf8) }
        #expect(messages.contains { raw.isValidSignature(Self.forged, for: $0) }, "the premise: cofactorless verification accepts some")
        let key = TrustKey(publicKey: Self.orderEight)
        #expect(key.violation?.contains("small order") == true, "\(String(describing: key.violation))")
        #expect(!messages.contains { key.verifies(Self.forged, over: $0) })
    }

    @Test("every small-order encoding, either sign, and every non-canonical y is refused; a real key is not",
          arguments: [
            [UInt8](repeating: 0, count: 32),
            [1] + [UInt8](repeating: 0, count: 31),
            [1] + [UInt8](repeating: 0, count: 30) + [0x80],
            [0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
             0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x85],
            [0xec] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
            [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
            [0xee] + [UInt8](repeating: 0xff, count: 30) + [0xff],
            [0xff] + [UInt8](repeating: 0xff, count: 31),
          ])
    func weakEncodings(_ bytes: [UInt8]) {
        let key = TrustKey(publicKey: Data(bytes))
        #expect(key.violation != nil, "\(bytes)")
    }

    @Test("a generated key passes; a weak key's refusal names its key ID")
    func documents() {
        let real = TrustKey(publicKey: Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        #expect(real.violation == nil)
        let weak = TrustKey(publicKey: Self.orderEight)
        #expect(weak.violation != nil && weak.violation!.contains(weak.keyid))
    }
}

/// Signature checks are bounded (issue 54, item 11).
@Suite("Bounded signature checks")
struct BoundedSignatureChecks {
    @Test("6,000 altered copies of a signature under one key ID cost one check: the key is tried on the first signature naming it, no other")
    func copiesCostOneCheck() {
        let signer = Curve25519.Signing.PrivateKey()
        let key = TrustKey(publicKey: signer.publicKey.rawRepresentation)
        var envelope = SignedEnvelope(payloadType: "application/vnd.tessera.test", payload: Data("statement".utf8), signatures: [])
        let genuine = try! signer.signature(for: envelope.preAuthenticationEncoding)
        for index in 0..<6_000 {
            var altered = [UInt8](genuine)
            altered[index % 32] ^= 1
            envelope.signatures.append(.init(keyid: key.keyid, sig: Data(altered)))
        }
        // The genuine one after the copies is never tried: the key was tried once, on the first copy.
        envelope.signatures.append(.init(keyid: key.keyid, sig: genuine))
        #expect(envelope.keysThatSigned(among: [key]).isEmpty)
        // The genuine signature first: it is the one tried, and it counts.
        envelope.signatures.insert(.init(keyid: key.keyid, sig: genuine), at: 0)
        #expect(envelope.keysThatSigned(among: [key]) == [key.keyid])
    }
}

/// `keys delegate --revoke` takes key IDs only (issue 54).
@Suite("Revoking by key ID")
struct RevokeTests {
    @Test("a revocation that is not a key ID is refused, naming it; a key ID is kept", arguments: ["ci-1.pub", "ABCDEF0123456789ABCDEF0123456789", "0123", ""])
    func notAKeyID(_ revoke: String) throws {
        let trust = try TrustChain()
        let next = KeyFile.generate()
        let error = #expect(throws: TesseraError.self) {
            try KeyDelegation.delegate(trust.chain, rootKeys: [trust.rootKey], signingKeys: [next.trustKey], revoke: [revoke],
                                       version: nil, expires: Date() + 86400, source: "chain.json")
        }
        #expect(error?.reason.contains("is not a key ID") == true, "\(String(describing: error))")
        let kept = try KeyDelegation.delegate(trust.chain, rootKeys: [trust.rootKey], signingKeys: [next.trustKey],
                                              revoke: [trust.signingKey.trustKey.keyid], version: nil, expires: Date() + 86400,
                                              source: "chain.json")
        #expect(try kept.signingKeys(source: "chain.json").revoked == [trust.signingKey.trustKey.keyid])
    }
}
