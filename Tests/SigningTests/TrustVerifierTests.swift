import Delivery
import Foundation
import Signing
import TesseraCore
import Testing

@Suite("Signed manifests: what the verifier accepts and refuses")
struct TrustVerifierTests {
    /// The reason of the `.untrusted` error `body` throws, naming the manifest's URL; nil when it does not throw one.
    func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as TesseraError {
            guard error.kind == .untrusted, error.file == "https://cdn.example/manifest.json" else { return "wrong error: \(error)" }
            return error.reason
        } catch {
            return "wrong error: \(error)"
        }
    }

    @Test("a manifest signed by a delegated key for its channel is accepted, and the state records its version and hash")
    func acceptsSigned() throws {
        let trust = try TrustChain()
        let accepted = try trust.verify(try trust.sidecar(version: 7))
        #expect(accepted.keyID == trust.signingKey.keyid)
        #expect(accepted.state.manifestVersion == 7 && accepted.state.manifestSHA256 == ContentHash.of(trust.manifest))
        #expect(accepted.state.keysVersion == 1 && accepted.state.root == nil)
    }

    @Test("other bytes, another channel, an older or reused version, an expiry passed: each refused, naming why")
    func refusesEachLie() throws {
        let trust = try TrustChain()
        let sidecar = try trust.sidecar(version: 5)
        let state = try trust.verify(sidecar).state
        #expect(refusal { _ = try trust.verify(sidecar, manifest: trust.manifest + Data(" ".utf8)) }?.contains("tampered") == true)
        #expect(refusal { _ = try trust.verify(try trust.sidecar(channel: "staging")) }?.contains("signed for channel 'staging', not 'production'") == true)
        #expect(refusal { _ = try trust.verify(try trust.sidecar(version: 4), state: state) }?.contains("rollback: manifest v4 is older than v5") == true)
        let other = trust.manifest + Data("\n".utf8)
        #expect(refusal { _ = try trust.verify(try trust.sidecar(version: 5, manifest: other), manifest: other, state: state) }?.contains("rollback") == true)
        #expect(refusal { _ = try trust.verify(try trust.sidecar(expires: Date() - 1)) }?.contains("expired at") == true)
        // The same manifest again at the same version is accepted (a refresh that changed nothing).
        #expect(try trust.verify(sidecar, state: state).state == state)
        // Read back offline (no clock), an expired signature still verifies; the caller reports it stale.
        #expect(try trust.verify(try trust.sidecar(expires: Date() - 1), now: nil).expires < Date())
    }

    @Test("a key the signing keys do not list, or revoke, is refused by name; its rotated successor is accepted")
    func unknownAndRevokedKeys() throws {
        var trust = try TrustChain()
        let stranger = KeyFile.generate()
        #expect(refusal { _ = try trust.verify(try trust.sidecar(key: stranger)) } == "signed by key \(stranger.keyid), which is not among signing keys v1")
        let old = trust.signingKey, next = KeyFile.generate()
        trust.chain = try KeyDelegation.delegate(trust.chain, rootKeys: [trust.rootKey], signingKeys: [next.trustKey],
                                                 revoke: [old.keyid], version: nil, expires: Date() + 86400, source: "chain.json")
        #expect(refusal { _ = try trust.verify(try trust.sidecar(key: old)) } == "signed by key \(old.keyid), which signing keys v2 revoke")
        #expect(try trust.verify(try trust.sidecar(key: next)).keyID == next.keyid)
        // A revoked key cannot be delegated again.
        #expect(throws: TesseraError.self) {
            _ = try KeyDelegation.delegate(trust.chain, rootKeys: [trust.rootKey], signingKeys: [old.trustKey], revoke: [],
                                           version: nil, expires: Date() + 86400, source: "chain.json")
        }
    }

    @Test("signing keys older than those accepted, not signed by the root, or expired are refused")
    func keysDocumentChecks() throws {
        let trust = try TrustChain()
        var newer = trust
        newer.chain = try KeyDelegation.delegate(trust.chain, rootKeys: [trust.rootKey], signingKeys: [trust.signingKey.trustKey],
                                                 revoke: [], version: 3, expires: Date() + 86400, source: "chain.json")
        let state = try newer.verify(try newer.sidecar(version: 1)).state
        #expect(refusal { _ = try trust.verify(try trust.sidecar(version: 2), state: state) }?.contains("rollback: signing keys v1 are older than v3") == true)
        var forged = trust
        let impostor = KeyFile.generate()
        forged.chain.keys = try .signing(try trust.chain.signingKeys(source: "chain.json"), with: [impostor])
        #expect(refusal { _ = try forged.verify(try forged.sidecar()) }?.contains("signed by 0 of root v1's keys") == true)
        var expired = trust
        expired.chain.keys = try .signing(SigningKeysDocument(version: 2, expires: TrustTime.format(Date() - 10),
                                                              keys: [trust.signingKey.trustKey], revoked: []), with: [trust.rootKey])
        #expect(refusal { _ = try expired.verify(try expired.sidecar()) }?.contains("the signing keys v2 expired at") == true)
    }

    @Test("root rotation: signed by the old and new roots it is followed and kept; signed by the new keys alone it is refused")
    func rootRotation() throws {
        let trust = try TrustChain()
        let newRoot = KeyFile.generate()
        var rotated = trust
        rotated.chain = try RootCeremony.rotate(trust.chain, oldKeys: [trust.rootKey], newKeys: [newRoot], threshold: 1, source: "chain.json")
        let accepted = try rotated.verify(try rotated.sidecar(version: 2))
        #expect(accepted.state.root?.version == 2 && accepted.state.root?.keys == [newRoot.trustKey])
        // Once at root v2, a chain that stops at v1 no longer verifies: its keys are v1's root's.
        #expect(refusal { _ = try trust.verify(try trust.sidecar(version: 3), state: accepted.state) }?.contains("signed by 0 of root v2's keys") == true)

        // An attacker's "root v2" over its own key, signing its own signing key.
        let attacker = KeyFile.generate()
        var hostile = trust
        let forgedRoot = RootDocument(version: 2, keys: [attacker.trustKey], threshold: 1)
        hostile.chain.roots.append(try .signing(forgedRoot, with: [attacker]))
        hostile.chain.keys = try .signing(SigningKeysDocument(version: 9, expires: TrustTime.format(Date() + 3600),
                                                              keys: [attacker.trustKey], revoked: []), with: [attacker])
        #expect(refusal { _ = try hostile.verify(try hostile.sidecar(key: attacker)) }
                == "root v2 is signed by 0 of root v1's keys (threshold 1) and 1 of its own (threshold 1)")
        // A gap in the chain is refused too.
        var gap = rotated
        gap.chain.roots.remove(at: 1)
        let third = KeyFile.generate()
        gap.chain.roots.append(try .signing(RootDocument(version: 3, keys: [third.trustKey], threshold: 1), with: [newRoot, third]))
        #expect(refusal { _ = try gap.verify(try gap.sidecar()) }?.contains("root v3 follows v1") == true)
    }

    @Test("a threshold of two root keys: one signature is not enough to rotate or delegate")
    func thresholds() throws {
        let first = KeyFile.generate(), second = KeyFile.generate()
        let chain = SigningChain(roots: [try RootCeremony.initialRoot(keys: [first, second], threshold: 2)])
        #expect(throws: TesseraError.self) {
            _ = try KeyDelegation.delegate(chain, rootKeys: [first], signingKeys: [KeyFile.generate().trustKey], revoke: [],
                                           version: nil, expires: Date() + 60, source: "chain.json")
        }
        #expect(throws: TesseraError.self) {
            _ = try RootCeremony.rotate(chain, oldKeys: [first], newKeys: [KeyFile.generate()], threshold: 1, source: "chain.json")
        }
        let root = try TrustedRoot(json: Data(try StableJSON.encode(chain.roots[0])), source: "root.json")
        #expect(root.root.threshold == 2 && root.root.keys.count == 2)
    }

    @Test("a signature over one role does not open as another: the payload type is signed")
    func rolesAreBound() throws {
        let trust = try TrustChain()
        #expect(throws: TesseraError.self) { _ = try ManifestStatement.open(trust.chain.keys!, source: "x") }
        var sidecar = try StableJSON.decode(ManifestSidecar.self, from: try trust.sidecar(), source: "x")
        sidecar.manifest.payloadType = SigningKeysDocument.payloadType
        #expect(refusal { _ = try trust.verify(try StableJSON.encode(sidecar)) }?.contains("where a \(ManifestStatement.payloadType) one belongs") == true)
    }
}
