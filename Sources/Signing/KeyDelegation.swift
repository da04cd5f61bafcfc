import Delivery
import Foundation
import TesseraCore

/// The root naming the keys that may sign manifests: the first delegation, and every rotation of
/// a signing key (a new document, version + 1, listing the new key and revoking the old).
public enum KeyDelegation {
    /// The chain with a new signing-keys document signed by `rootKeys` (a threshold of the newest
    /// root). Revocations are kept from the previous document: a revoked key never comes back.
    /// `version` nil: one more than the previous document's (1 for the first).
    public static func delegate(_ chain: SigningChain, rootKeys: [KeyFile], signingKeys: [TrustKey], revoke: [String],
                                version: Int?, expires: Date, source: String) throws(TesseraError) -> SigningChain {
        // A revocation names a key ID (32 lowercase hex digits, `keys generate` prints it): a typo
        // or a file name would revoke nothing, silently.
        if let bad = revoke.first(where: { $0.count != 32 || !$0.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) }) {
            throw TesseraError(.configuration, file: source, origin: .publish,
                               reason: "--revoke '\(bad.prefix(80))' is not a key ID (32 lowercase hex digits, as `tessera keys generate` prints)")
        }
        let root = try chain.newestRoot(source: source)
        try RootCeremony.requireThreshold(of: root, among: rootKeys, source: source)
        let previous = chain.keys == nil ? nil : try chain.signingKeys(source: source)
        let revoked = Set((previous?.revoked ?? []) + revoke)
        if let again = signingKeys.first(where: { revoked.contains($0.keyid) }) {
            throw TesseraError(.configuration, file: source, origin: .publish, reason: "key \(again.keyid) is revoked and cannot sign again")
        }
        let next = version ?? (previous?.version ?? 0) + 1
        if let previous, next <= previous.version {
            throw TesseraError(.configuration, file: source, origin: .publish,
                               reason: "version \(next) is not above the current signing keys' v\(previous.version): clients would refuse it")
        }
        let document = SigningKeysDocument(version: next, expires: TrustTime.format(expires), keys: signingKeys,
                                           revoked: revoked.sorted())
        if let violation = document.violation { throw TesseraError(.configuration, file: source, origin: .publish, reason: violation) }
        var delegated = chain
        delegated.keys = try .signing(document, with: rootKeys)
        return delegated
    }
}
