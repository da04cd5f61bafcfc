import Decoding
import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the jobs that carry catalog items through unchanged: a colour set's or symbol set's
/// Contents.json and a data set's files are copied under `data/` and listed in the manifest.
struct DataStage: Stage {
    typealias Input = CarriedFile
    typealias Output = CarriedData
    static let kind = JobKind.data
    static let version = 1
    static let priority = StagePriority.write
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
        job(CarriedFile(asset, file: file, listedAs: Self.relativePath(of: asset, file: file), tags: asset.tags,
                        inputFolder: inputFolder, hashing: hashing))
    }

    func subject(of input: CarriedFile) -> String { input.source.path }
    /// An unreadable file is not cached: its job fails.
    func cacheRoot(for input: CarriedFile) -> String? { input.source.contentHash == nil ? nil : outputFolder }
    func cachedFiles(for input: CarriedFile) -> [String]? { [input.path] }

    func run(_ input: CarriedFile, context: JobContext) throws -> CarriedData {
        try input.copy(into: outputFolder, context: context)
    }
}

/// A catalog item's file carried through, as the manifest lists it.
struct CarriedData: CachedOutput {
    let entry: DataEntry

    var files: [String] { [entry.path] }
    var knownHashes: [String: ContentHash] { [entry.path: entry.sha256] }
}

/// A catalog file carried through byte for byte: what a data or app job declares. Its bytes are
/// keyed by their hash (read while planning), its place and listing by name.
struct CarriedFile: Sendable, Encodable {
    let source: SourceFile
    let name: AssetID
    let kind: String
    /// Where it goes and is listed, relative to the output folder.
    let path: String
    let tags: [String]

    init(_ asset: CatalogAsset, file: String, listedAs path: String, tags: [String], inputFolder: String,
         hashing: any FileHashing) {
        let location = "\(inputFolder)/\(file)"
        source = SourceFile(path: location, contentHash: try? hashing.contentHash(ofFileAt: location))
        name = asset.name
        kind = asset.kind.rawValue
        self.path = path
        self.tags = tags
    }

    /// Copies the file under `outputFolder` (atomically), as the manifest lists it.
    func copy(into outputFolder: String, context: JobContext) throws(TesseraError) -> CarriedData {
        let bytes = try SourceBytes(contentsOfFile: source.path)
        let copy = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        try context.checkCancellation()
        try AtomicFile.write(copy, to: "\(outputFolder)/\(path)", flushing: false)
        return CarriedData(entry: DataEntry(name: name, kind: kind, path: path, bytes: copy.count,
                                            sha256: ContentHash.of(copy), tags: tags))
    }
}
