import Delivery
import Foundation
import TesseraCore

/// The publisher's file of trust documents (`chain.json`): every root document, oldest first,
/// and the signing-keys document the newest root signed. `tessera keys root init`, `delegate`
/// and `rotate-root` write it; `tessera sign` and `publish --sign` copy it into each sidecar.
/// It holds no private key, so it may live in the repository and on CI.
/// JSON: `{"format": 1, "keys": SignedEnvelope or absent, "roots": [SignedEnvelope…]}`.
public struct SigningChain: Sendable, Codable, Equatable {
    public var format: Int = 1
    public var roots: [SignedEnvelope]
    public var keys: SignedEnvelope?

    public init(roots: [SignedEnvelope], keys: SignedEnvelope? = nil) {
        self.roots = roots
        self.keys = keys
    }

    public static func read(_ path: String) throws(TesseraError) -> SigningChain {
        let chain = try StableJSON.decode(SigningChain.self, from: try KeyFile.read(path), source: path)
        guard chain.format == 1, !chain.roots.isEmpty else {
            throw TesseraError(.configuration, file: path, origin: .publish, reason: "not a signing chain (tessera keys root init writes one)")
        }
        return chain
    }

    public func write(_ path: String) throws(TesseraError) {
        try AtomicFile.write(try StableJSON.encode(self), to: path)
    }

    /// The newest root document, opened.
    public func newestRoot(source: String) throws(TesseraError) -> RootDocument {
        try RootDocument.open(roots[roots.count - 1], source: source)
    }

    /// The signing-keys document, opened; an error naming `source` when there is none yet.
    public func signingKeys(source: String) throws(TesseraError) -> SigningKeysDocument {
        guard let keys else {
            throw TesseraError(.configuration, file: source, origin: .publish,
                               reason: "no signing keys delegated yet (tessera keys delegate)")
        }
        return try SigningKeysDocument.open(keys, source: source)
    }
}
