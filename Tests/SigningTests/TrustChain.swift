import Delivery
import Foundation
import Signing
import TesseraCore

/// A root key, a signing key and the chain delegating to it, made in memory for a test; the
/// verifier pins root v1.
struct TrustChain {
    var rootKey = KeyFile.generate()
    var signingKey = KeyFile.generate()
    var chain: SigningChain
    let manifest = Data(#"{"assets":[],"pipeline":"test","version":1}"#.utf8)

    init() throws {
        chain = SigningChain(roots: [try RootCeremony.initialRoot(keys: [rootKey], threshold: 1)])
        chain = try KeyDelegation.delegate(chain, rootKeys: [rootKey], signingKeys: [signingKey.trustKey], revoke: [],
                                           version: nil, expires: Date() + 86400, source: "chain.json")
    }

    var pinned: TrustedRoot { get throws { TrustedRoot(root: try RootDocument.open(chain.roots[0], source: "root.json")) } }

    /// A sidecar as a hostile or careless signer might make it: nothing checked.
    func sidecar(key: KeyFile? = nil, chain: SigningChain? = nil, channel: String = "production", version: Int = 1,
                 expires: Date = Date() + 3600, manifest: Data? = nil) throws -> [UInt8] {
        try ManifestSigner(key: key ?? signingKey, chain: chain ?? self.chain, chainSource: "chain.json")
            .uncheckedSidecar(for: manifest ?? self.manifest, channel: channel, version: version, expires: expires, source: "manifest.json")
    }

    func verify(_ sidecar: [UInt8], manifest: Data? = nil, state: TrustState = TrustState(),
                channel: String = "production", now: Date? = Date()) throws -> TrustVerifier.Accepted {
        try TrustVerifier(pinned: try pinned, channel: channel).verify(manifest: manifest ?? self.manifest, sidecar: sidecar,
                                                                      state: state, now: now, source: "https://cdn.example/manifest.json")
    }
}
