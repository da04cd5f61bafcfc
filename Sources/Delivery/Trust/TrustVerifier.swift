import Foundation
import TesseraCore

/// Checks a manifest and its sidecar against a pinned root, the channel expected and what was
/// accepted before, and says what is accepted now. The one copy of these rules: the client runs
/// it on every refresh and `tessera sign` runs it on what it writes.
///
/// In order: each root in the sidecar newer than the current one must be the next version,
/// signed by a threshold of the current root's keys and of its own; the signing-keys document by
/// a threshold of the newest root, not older than the last accepted, not expired; the statement
/// by a listed key that is not revoked; for this channel, these bytes, not older, not expired.
public struct TrustVerifier: Sendable {
    public var pinned: TrustedRoot
    public var channel: String

    public init(pinned: TrustedRoot, channel: String) {
        self.pinned = pinned
        self.channel = channel
    }

    /// What was accepted.
    public struct Accepted: Sendable, Equatable {
        public var statement: ManifestStatement
        public var keyID: String
        /// The state to keep for the next check.
        public var state: TrustState
        /// The earlier of the statement's and the keys document's expiries.
        public var expires: Date
    }

    /// `now` nil skips the expiry checks (a stored manifest read back: the caller reports it stale).
    /// `source` (the manifest's URL or path) names the failure.
    public func verify(manifest: Data, sidecar: [UInt8], state: TrustState, now: Date?,
                       source: String) throws(TesseraError) -> Accepted {
        func refuse(_ reason: String) -> TesseraError { TesseraError(.untrusted, file: source, origin: .client, reason: reason) }
        let signature = try ManifestSidecar.decode(sidecar, source: source + ManifestSidecar.suffix)
        var root = state.root.map { $0.version > pinned.root.version ? $0 : pinned.root } ?? pinned.root
        for envelope in signature.roots {
            let next = try RootDocument.open(envelope, source: source + ManifestSidecar.suffix)
            guard next.version > root.version else { continue }
            guard next.version == root.version + 1 else {
                throw refuse("root v\(next.version) follows v\(root.version): a rotation in between is missing")
            }
            let byOld = envelope.keysThatSigned(among: root.keys).count, byNew = envelope.keysThatSigned(among: next.keys).count
            guard byOld >= root.threshold, byNew >= next.threshold else {
                throw refuse("root v\(next.version) is signed by \(byOld) of root v\(root.version)'s keys (threshold \(root.threshold)) and \(byNew) of its own (threshold \(next.threshold))")
            }
            root = next
        }
        let keys = try SigningKeysDocument.open(signature.keys, source: source + ManifestSidecar.suffix)
        let rootSigners = signature.keys.keysThatSigned(among: root.keys).count
        guard rootSigners >= root.threshold else {
            throw refuse("the signing keys v\(keys.version) are signed by \(rootSigners) of root v\(root.version)'s keys; its threshold is \(root.threshold)")
        }
        let keysHash = ContentHash.of(signature.keys.payload)
        guard keys.version > state.keysVersion || (keys.version == state.keysVersion && (state.keysSHA256 ?? keysHash) == keysHash) else {
            throw refuse("rollback: signing keys v\(keys.version) are older than v\(state.keysVersion), accepted before")
        }
        let statement = try ManifestStatement.open(signature.manifest, source: source + ManifestSidecar.suffix)
        let keyID = try signer(of: signature.manifest, keys: keys, refuse: refuse)
        guard statement.channel == channel else {
            throw refuse("signed for channel '\(statement.channel)', not '\(channel)'")
        }
        let hash = ContentHash.of(manifest)
        guard statement.manifest.sha256 == hash, statement.manifest.size == manifest.count else {
            throw refuse("the manifest (\(manifest.count) bytes, SHA-256 \(hash.hex)) is not the one signed (\(statement.manifest.size) bytes, \(statement.manifest.sha256.hex)): tampered")
        }
        guard statement.version > state.manifestVersion
                || (statement.version == state.manifestVersion && (state.manifestSHA256 ?? hash) == hash) else {
            throw refuse("rollback: manifest v\(statement.version) is older than v\(state.manifestVersion), accepted before")
        }
        let expires = min(TrustTime.parse(statement.expires)!, TrustTime.parse(keys.expires)!)
        if let now, expires <= now {
            let which = TrustTime.parse(keys.expires)! <= now ? "the signing keys v\(keys.version) expired at \(keys.expires)"
                : "manifest v\(statement.version) expired at \(statement.expires)"
            throw refuse("\(which) (now \(TrustTime.format(now))): a frozen or stale copy")
        }
        let kept = TrustState(root: root.version > pinned.root.version ? root : nil, keysVersion: keys.version, keysSHA256: keysHash,
                              manifestVersion: statement.version, manifestSHA256: hash, expires: TrustTime.format(expires))
        return Accepted(statement: statement, keyID: keyID, state: kept, expires: expires)
    }

    /// The listed, unrevoked key whose signature over the statement is valid; otherwise why none is.
    private func signer(of envelope: SignedEnvelope, keys: SigningKeysDocument,
                        refuse: (String) -> TesseraError) throws(TesseraError) -> String {
        let revoked = Set(keys.revoked)
        let usable = keys.keys.filter { !revoked.contains($0.keyid) }
        if let valid = envelope.keysThatSigned(among: usable).sorted().first { return valid }
        let named = envelope.signatures.map(\.keyid)
        guard !named.isEmpty else { throw refuse("the manifest statement carries no signature") }
        if let key = named.first(where: revoked.contains) {
            throw refuse("signed by key \(key), which signing keys v\(keys.version) revoke")
        }
        if let key = named.first(where: { id in !usable.contains { $0.keyid == id } }) {
            throw refuse("signed by key \(key), which is not among signing keys v\(keys.version)")
        }
        throw refuse("the signature by key \(named[0]) does not verify")
    }
}
