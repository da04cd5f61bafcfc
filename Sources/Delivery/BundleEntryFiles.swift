import TesseraCore

/// A build's bundle entry names back to the files under its output folder they were packed from
/// (variants, ready bitmaps, preserved vectors, data items), with their asset, size and SHA-256:
/// what a size report measures, what Apple's and Google's tools read from disk, and the name of
/// the entry's object (`TransferObject`).
public struct BundleEntryFiles: Sendable {
    public struct File: Sendable, Equatable {
        /// The asset (or data item) the file belongs to.
        public var asset: String
        /// Relative to the output folder.
        public var path: String
        public var bytes: Int
        /// SHA-256 of the file: the bundle index's hash of the entry, and its object's name.
        public var sha256: ContentHash
    }

    private var files: [String: File] = [:]

    public init(_ manifest: Manifest) {
        for asset in manifest.assets {
            let name = asset.name.name
            for variant in asset.variants {
                files[BundleEntryName.entry(forOutput: variant.path, folder: "assets")] = File(asset: name, path: variant.path, bytes: variant.bytes, sha256: variant.sha256)
                if let bitmap = variant.readyBitmap {
                    files[BundleEntryName.entry(forOutput: bitmap.path, folder: "bitmaps")] = File(asset: name, path: bitmap.path, bytes: bitmap.bytes, sha256: bitmap.sha256)
                }
            }
            if let vector = asset.vector {
                files[BundleEntryName.entry(forOutput: vector.path, folder: "assets")] = File(asset: name, path: vector.path, bytes: vector.bytes, sha256: vector.sha256)
            }
        }
        for item in manifest.data { files[item.path] = File(asset: item.name.name, path: item.path, bytes: item.bytes, sha256: item.sha256) }
    }

    /// The file packed as `entry`; nil for an entry of no known file.
    public subscript(entry entry: String) -> File? { files[entry] }

    /// The files of `entries`, in order; entries of no known file are left out.
    public func paths(_ entries: [String]) -> [String] {
        entries.compactMap { files[$0]?.path }
    }
}
