import Delivery
import Foundation
import TesseraCore

/// Making and rotating the root of trust. Root keys sign rarely (here and in `KeyDelegation`):
/// keep them offline, apart from the signing keys CI holds.
public enum RootCeremony {
    /// Root v1 over the public halves of `keys`, signed by all of them: the chain's first root
    /// and the `root.json` apps pin.
    public static func initialRoot(keys: [KeyFile], threshold: Int) throws(TesseraError) -> SignedEnvelope {
        let root = RootDocument(version: 1, keys: keys.map(\.trustKey), threshold: threshold)
        if let violation = root.violation { throw TesseraError(.configuration, origin: .publish, reason: violation) }
        return try .signing(root, with: keys)
    }

    /// Appends root v(n+1) over `newKeys`, signed by `oldKeys` (a threshold of root vn's keys) and
    /// by `newKeys` (a threshold of its own), and re-signs the chain's signing-keys document with
    /// the new root's keys so that it stays valid. Apps pinning any earlier root follow the chain.
    public static func rotate(_ chain: SigningChain, oldKeys: [KeyFile], newKeys: [KeyFile], threshold: Int,
                              source: String) throws(TesseraError) -> SigningChain {
        let current = try chain.newestRoot(source: source)
        try requireThreshold(of: current, among: oldKeys, source: source)
        let next = RootDocument(version: current.version + 1, keys: newKeys.map(\.trustKey), threshold: threshold)
        if let violation = next.violation { throw TesseraError(.configuration, file: source, origin: .publish, reason: violation) }
        var rotated = chain
        rotated.roots.append(try .signing(next, with: oldKeys + newKeys))
        if let keys = chain.keys {
            rotated.keys = try .signing(try SigningKeysDocument.open(keys, source: source), with: newKeys)
        }
        return rotated
    }

    /// Throws unless `keys` hold at least `root.threshold` of the root's keys.
    static func requireThreshold(of root: RootDocument, among keys: [KeyFile], source: String) throws(TesseraError) {
        let listed = Set(root.keys.map(\.keyid))
        if let stranger = keys.first(where: { !listed.contains($0.keyid) }) {
            throw TesseraError(.configuration, file: source, origin: .publish, reason: "key \(stranger.keyid) is not a key of root v\(root.version)")
        }
        guard Set(keys.map(\.keyid)).count >= root.threshold else {
            throw TesseraError(.configuration, file: source, origin: .publish,
                               reason: "root v\(root.version) needs \(root.threshold) of its keys to sign; \(keys.count) given")
        }
    }
}
