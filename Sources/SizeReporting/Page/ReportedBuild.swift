import Delivery

/// A build a report describes: its manifest, and the folder its variant paths are relative to,
/// when its files are at hand (nil for a manifest fetched from a server: no pictures then).
public struct ReportedBuild: Sendable {
    public var manifest: Manifest
    public var folder: String?

    public init(manifest: Manifest, folder: String?) {
        self.manifest = manifest
        self.folder = folder
    }
}
