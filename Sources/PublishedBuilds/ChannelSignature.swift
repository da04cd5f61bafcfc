import Delivery
import TesseraCore

/// A manifest signature as the build store keeps it: the sidecar's JSON (`manifest.json.sig`,
/// docs/security.md) and the version its statement signs. The version is read once, when the
/// signature arrives, so that the store can compare versions inside the transaction that moves a
/// channel (`SignedChannelRule`) without parsing every signature the channel ever had.
public struct ChannelSignature: Sendable, Equatable {
    /// The sidecar's bytes as UTF-8 text, answered as they came.
    public var sidecar: String
    /// The version its manifest statement signs.
    public var version: Int

    public init(sidecar: String, version: Int) {
        self.sidecar = sidecar
        self.version = version
    }

    /// The version a kept sidecar's statement signs, or nil when it is not a sidecar: how
    /// signatures kept before versions had a column of their own get one (migration v4). The
    /// statement is opened, not verified: the server holds no root, clients judge signatures.
    static func version(ofKept sidecar: String) -> Int? {
        do throws(TesseraError) {
            let decoded = try ManifestSidecar.decode(Array(sidecar.utf8), source: "build_signatures")
            return try ManifestStatement.open(decoded.manifest, source: "build_signatures").version
        } catch {
            return nil
        }
    }
}
