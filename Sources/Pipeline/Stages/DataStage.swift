import Decoding
import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the jobs that carry catalog items through unchanged: a colour set's or symbol set's
/// Contents.json and a data set's files are copied under `data/` and listed in the manifest.
struct DataStage: Stage {
    typealias Output = CarriedData
    static let name = StageName.data
    static let version = 1
    let inputFolder: String
    let outputFolder: String
    /// How the files' hashes are found (the cache's fingerprint index spares re-reading them).
    var hashing: any FileHashing = DirectFileHashing()

    /// The files an item carries, relative to the input folder.
    static func files(of asset: CatalogAsset) -> [String] {
        (asset.contentsFile.map { [$0] } ?? [])
            + (asset.kind == .data || asset.kind == .symbol || asset.kind == .iconComposer ? asset.entries.map(\.file) : [])
    }

    /// Where a carried file goes, relative to the output folder. Android resources keep their
    /// folder (`data/res/drawable-anydpi-v24/logo.xml`): Android finds them by it, and two
    /// folders may hold files of one name.
    static func relativePath(of asset: CatalogAsset, file: String) -> String {
        if AndroidResourceFolder.holds(file) { return "data/\(file)" }
        // An Icon Composer bundle keeps its layout: its description names `Assets/` files.
        if asset.kind == .iconComposer, let bundle = file.range(of: ".icon/") {
            return "data/\(asset.name.name).icon/\(file[bundle.upperBound...])"
        }
        return "data/\(asset.name.name).\(asset.kind.rawValue)/\(file.split(separator: "/").last ?? "")"
    }

    func job(for asset: CatalogAsset, file: String) -> Job<CarriedData> {
        let relative = Self.relativePath(of: asset, file: file)
        let key = Self.key(options: ["from": file, "to": relative])
        let source = "\(inputFolder)/\(file)", target = "\(outputFolder)/\(relative)"
        let carry = job(key: key, subject: source, priority: StagePriority.write) { context in
            try CarriedData.copy(asset, from: source, to: target, listedAs: relative, tags: asset.tags, context: context)
        }
        // The key names paths only; the bytes' hash and the tags make the result cacheable
        // (an unreadable file is not cached: its job fails).
        guard let content = try? hashing.contentHash(ofFileAt: source) else { return carry }
        return carry.cached(under: outputFolder, salt: ["content=\(content.hex)", "tags=\(asset.tags.joined(separator: ","))"])
    }
}

/// A catalog item's file carried through, as the manifest lists it.
struct CarriedData: CachedOutput {
    let entry: DataEntry

    var files: [String] { [entry.path] }
    var knownHashes: [String: ContentHash] { [entry.path: entry.sha256] }

    /// Copies `source` to `target` byte for byte (atomically), listed at `relative`.
    static func copy(_ asset: CatalogAsset, from source: String, to target: String, listedAs relative: String,
                     tags: [String], context: JobContext) throws(TesseraError) -> CarriedData {
        let bytes = try SourceBytes(contentsOfFile: source)
        let copy = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        try context.checkCancellation()
        try AtomicFile.write(copy, to: target, flushing: false)
        return CarriedData(entry: DataEntry(name: asset.name, kind: asset.kind.rawValue, path: relative,
                                            bytes: copy.count, sha256: ContentHash.of(copy), tags: tags))
    }
}
