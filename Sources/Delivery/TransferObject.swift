import TesseraCore

/// How an object's bytes travel: as they are, or xz-compressed.
///
/// PNG, JPEG, WebP and other already-compressed entries travel as their stored bytes (xz would
/// gain a few per cent for a full decode on the phone); ready bitmaps and compressible data
/// travel as xz, which both client platforms decode (`XZ`).
public enum TransferEncoding: String, Sendable, Codable, Hashable {
    case identity
    case xz
}

/// One bundle entry's contents as a download of its own: `objects/<sha256>` beside the bundles,
/// so a device that has last build's bundle fetches only the entries that changed.
///
/// Named by the SHA-256 of the decoded contents, the hash the manifest lists for the file and
/// the bundle index for the entry, so one name serves every bundle, device and build holding the
/// same bytes, and the signed manifest already vouches for every object. The manifest lists each
/// distinct object once (`Manifest.objects`); `BundleEntryObjects` finds a bundle entry's.
public struct TransferObject: Sendable, Codable, Equatable {
    /// SHA-256 of the decoded contents: the object's name.
    public var sha256: ContentHash
    /// The decoded contents' size: what the entry unpacks to.
    public var bytes: Int
    public var encoding: TransferEncoding
    /// The size of `objects/<sha256>` as this build wrote it: what a device downloads. Another
    /// build may have stored the same contents with another xz setting first (`tessera serve`
    /// keeps the first), so a client bounds a download by it with room to spare and checks the
    /// decoded bytes, never the transfer size.
    public var transferBytes: Int

    public init(sha256: ContentHash, bytes: Int, encoding: TransferEncoding, transferBytes: Int) {
        self.sha256 = sha256
        self.bytes = bytes
        self.encoding = encoding
        self.transferBytes = transferBytes
    }

    /// The object's path relative to the manifest's folder (and its URL relative to the manifest's).
    public var path: String { Self.path(of: sha256) }

    /// `objects/<64 hex digits>`.
    public static func path(of sha256: ContentHash) -> String { "objects/" + sha256.hex }

    /// The folder objects live in, relative to the manifest's folder.
    public static let folder = "objects"
}
