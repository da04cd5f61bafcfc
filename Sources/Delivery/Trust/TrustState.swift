import Foundation
import TesseraCore

/// What a client accepted last, kept in its store (`trust.json`) so that nothing older is
/// accepted after it: the newest root it followed a rotation to, the signing keys' version, and
/// the manifest statement. A version equal to the last one is accepted only for the same document.
public struct TrustState: Sendable, Codable, Equatable {
    /// The newest root reached through rotations; nil while it is the pinned one.
    public var root: RootDocument?
    public var keysVersion: Int
    /// The signing keys document's hash, so one version cannot name two sets of keys.
    public var keysSHA256: ContentHash?
    public var manifestVersion: Int
    public var manifestSHA256: ContentHash?
    /// When the accepted statement or keys document expires, whichever comes first.
    public var expires: String?

    public init(root: RootDocument? = nil, keysVersion: Int = 0, keysSHA256: ContentHash? = nil, manifestVersion: Int = 0,
                manifestSHA256: ContentHash? = nil, expires: String? = nil) {
        self.root = root
        self.keysVersion = keysVersion
        self.keysSHA256 = keysSHA256
        self.manifestVersion = manifestVersion
        self.manifestSHA256 = manifestSHA256
        self.expires = expires
    }
}
