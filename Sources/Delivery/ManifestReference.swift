import TesseraCore

/// A manifest named by its exact bytes: their SHA-256 and size, as a signed statement names the
/// manifest it vouches for (`ManifestStatement.manifest`). What predecessor lists and patch
/// indexes point at: a patch is checked against the one it claims to make before its output is parsed.
public struct ManifestReference: Sendable, Codable, Hashable {
    public var sha256: ContentHash
    public var bytes: Int

    public init(sha256: ContentHash, bytes: Int) {
        self.sha256 = sha256
        self.bytes = bytes
    }

    /// The reference to exactly these bytes.
    public init(of manifestBytes: [UInt8]) {
        self.init(sha256: ContentHash.of(manifestBytes), bytes: manifestBytes.count)
    }
}
