import Foundation
import TesseraCore

/// The root of trust an app pins (`ClientConfiguration.trustedRoot`): a root document, read from
/// the `root.json` that `tessera keys root init` writes (a `SignedEnvelope` signed by a threshold
/// of its own keys). Ship it inside the app: whoever can replace it decides what the app trusts.
public struct TrustedRoot: Sendable, Equatable {
    public let root: RootDocument

    public init(root: RootDocument) {
        self.root = root
    }

    /// Reads a root file; it must be signed by `threshold` of the keys it lists.
    public init(contentsOf url: URL) throws(TesseraError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TesseraError(.io, file: url.path, origin: .client, reason: "cannot read the trusted root file")
        }
        try self.init(json: data, source: url.path)
    }

    public init(json: Data, source: String) throws(TesseraError) {
        guard json.count <= ManifestSidecar.maxBytes else {
            throw TesseraError(.untrusted, file: source, origin: .client, reason: "a root file is not over 1 MiB")
        }
        let envelope = try StableJSON.decode(SignedEnvelope.self, from: Array(json), source: source)
        let root = try RootDocument.open(envelope, source: source)
        let signers = envelope.keysThatSigned(among: root.keys)
        guard signers.count >= root.threshold else {
            throw TesseraError(.untrusted, file: source, origin: .client,
                               reason: "root v\(root.version) is signed by \(signers.count) of its keys; its threshold is \(root.threshold)")
        }
        self.root = root
    }
}
