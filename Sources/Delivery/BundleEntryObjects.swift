import TesseraCore

/// Each bundle entry's object (`TransferObject`): what a device fetches instead of a whole
/// bundle when it already has most of it. The manifest lists each distinct object once, by hash;
/// an entry's hash is its built file's (`BundleEntryFiles`), the same the bundle index names.
public struct BundleEntryObjects: Sendable {
    private let files: BundleEntryFiles
    private let objects: [ContentHash: TransferObject]

    public init(_ manifest: Manifest) {
        files = BundleEntryFiles(manifest)
        var objects: [ContentHash: TransferObject] = [:]
        for object in manifest.objects ?? [] { objects[object.sha256] = object }
        self.objects = objects
    }

    /// The object of `entry` (a name in `BundleEntry.entries`); nil when the manifest lists
    /// none for it (a manifest of minor version 0, or an entry of no known file).
    public subscript(entry entry: String) -> TransferObject? {
        files[entry: entry].flatMap { objects[$0.sha256] }
    }

    /// The object named `sha256`, if the manifest lists it.
    public subscript(sha256 sha256: ContentHash) -> TransferObject? { objects[sha256] }
}
