import Delivery

/// A bundle's entry names back to the files under the output folder they were packed from
/// (variants, ready bitmaps, preserved vectors, data items), which Apple's tools read from disk.
struct BundleFiles {
    private var paths: [String: String] = [:]

    init(_ manifest: Manifest) {
        for asset in manifest.assets {
            for variant in asset.variants {
                paths[BundleEntryName.entry(forOutput: variant.path, folder: "assets")] = variant.path
                if let bitmap = variant.readyBitmap {
                    paths[BundleEntryName.entry(forOutput: bitmap.path, folder: "bitmaps")] = bitmap.path
                }
            }
            if let vector = asset.vector { paths[BundleEntryName.entry(forOutput: vector.path, folder: "assets")] = vector.path }
        }
        for item in manifest.data { paths[item.path] = item.path }
    }

    /// The files of `entries`, in order; an entry of no known file is left out.
    func paths(_ entries: [String]) -> [String] {
        entries.compactMap { paths[$0] }
    }
}
