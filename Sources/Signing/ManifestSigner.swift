import Delivery
import Foundation
import TesseraCore

/// Signs a manifest's exact bytes for a channel, with a version and an expiry, into the sidecar
/// a client checks (`ManifestSidecar`). What it makes is checked with the client's own
/// `TrustVerifier` against the chain's first root before it is returned, so a key that is not
/// delegated, revoked or expired fails here, at the publisher, rather than in every app.
public struct ManifestSigner: Sendable {
    public var key: KeyFile
    public var chain: SigningChain
    public var chainSource: String

    public init(key: KeyFile, chain: SigningChain, chainSource: String) {
        self.key = key
        self.chain = chain
        self.chainSource = chainSource
    }

    public func sidecar(for manifest: Data, channel: String, version: Int, expires: Date,
                        source: String) throws(TesseraError) -> [UInt8] {
        let bytes = try uncheckedSidecar(for: manifest, channel: channel, version: version, expires: expires, source: source)
        let first = TrustedRoot(root: try RootDocument.open(chain.roots[0], source: chainSource))
        do {
            _ = try TrustVerifier(pinned: first, channel: channel).verify(manifest: manifest, sidecar: bytes, state: TrustState(),
                                                                        now: Date(), source: source)
        } catch {
            throw TesseraError(.configuration, file: source, origin: .publish, reason: "the signature would be refused: \(error.reason)")
        }
        return bytes
    }

    /// The sidecar without the verifier's check: what `sidecar(for:…)` signs. Tests use it to
    /// make the signatures a client must refuse (expired, by a revoked key); publishing never does.
    public func uncheckedSidecar(for manifest: Data, channel: String, version: Int, expires: Date,
                                 source: String) throws(TesseraError) -> [UInt8] {
        _ = try chain.signingKeys(source: chainSource)  // throws, naming the chain, when none was delegated
        let statement = ManifestStatement(channel: channel, version: version, expires: TrustTime.format(expires),
                                          manifest: .init(sha256: ContentHash.of(manifest), size: manifest.count))
        if let violation = statement.violation { throw TesseraError(.configuration, file: source, origin: .publish, reason: violation) }
        return try StableJSON.encode(ManifestSidecar(roots: Array(chain.roots.dropFirst()), keys: chain.keys!,
                                                     manifest: try .signing(statement, with: [key])))
    }

    /// Signs `folder/manifest.json` into `folder/manifest.json.sig` (temporary file + rename), for
    /// a static host that serves the folder as it is.
    public func signFolder(_ folder: String, channel: String, version: Int, expires: Date) throws(TesseraError) -> String {
        let path = (folder as NSString).appendingPathComponent("manifest.json") + ManifestSidecar.suffix
        try AtomicFile.write(try sidecar(forBuild: folder, channel: channel, version: version, expires: expires), to: path)
        return path
    }

    /// The sidecar for `folder/manifest.json`'s bytes as they are on disk.
    public func sidecar(forBuild folder: String, channel: String, version: Int, expires: Date) throws(TesseraError) -> [UInt8] {
        let path = (folder as NSString).appendingPathComponent("manifest.json")
        return try sidecar(for: Data(try KeyFile.read(path)), channel: channel, version: version, expires: expires, source: path)
    }
}
