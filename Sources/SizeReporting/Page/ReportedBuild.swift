import Delivery
import Foundation

/// A build a report describes: its manifest, and the folder its variant paths are relative to,
/// when its files are at hand (nil for a manifest fetched from a server, whose pictures are then
/// fetched by ranges of its bundles from `manifestURL`: `PreviousPictures`).
public struct ReportedBuild: Sendable {
    public var manifest: Manifest
    public var folder: String?
    /// Where the manifest was fetched from, for one fetched from a server.
    public var manifestURL: URL?
    /// The variant files a picture may be made from (nil: any in `folder`), for a build whose
    /// files were fetched in part.
    public var pictured: Set<String>?
    /// The manifest's exact bytes, named (when they were read): what a patch starts from and
    /// what an update costs in full (`UpdateCosts`).
    public var reference: ManifestReference?
    /// The `updates.json` beside it, when it is on disk and reads.
    public var updateIndex: UpdateIndex?

    public init(manifest: Manifest, folder: String?, manifestURL: URL? = nil, reference: ManifestReference? = nil,
                updateIndex: UpdateIndex? = nil) {
        self.manifest = manifest
        self.folder = folder
        self.manifestURL = manifestURL
        self.reference = reference
        self.updateIndex = updateIndex
    }
}
