import Decoding
import Delivery
import Foundation
import JobEngine
import Slicing
import TesseraCore

/// Writes an image set that stays in the app as the catalog Xcode should compile: under
/// `app/<its path in the input>/`, the set's `Contents.json` rewritten to name Tessera's variants
/// (the provided scales copied byte for byte, the missing smaller ones made from the largest
/// master, vectors drawn at each scale unless the set preserves them), and those files beside it.
///
/// Everything else the set's description says is kept as written (idioms, appearances, gamut,
/// slicing, rendering intent, on-demand tags, `info`), so actool compiles the same set with the
/// scales filled in; an entry slot no variant fills stays without a file, as it was. Sets Tessera
/// does not rewrite (icons, complications, single-scale and preserved-vector sets, plain-folder
/// files) are copied as they are by `AppStage`.
struct AppCatalogStage: Stage {
    struct Input: Encodable, Sendable {
        let name: AssetID
        /// The set's `Contents.json` in the input.
        let contents: SourceFile
        /// The set's folder, relative to the input folder (`App/Assets.xcassets/Logo.imageset`).
        let folder: String
        /// The original file name of each entry → its variant group.
        let groups: [String: String]
        let variants: [Variant]
    }

    /// One variant of the set, as a scale of a group.
    struct Variant: Encodable, Sendable {
        let group: String
        let scale: DisplayScale
        let file: Upstream<WrittenVariant>
    }

    typealias Output = AppCatalogSet
    static let kind = JobKind.app
    static let version = 1
    static let priority = StagePriority.write
    let outputFolder: String

    /// The set folder's path under the output folder.
    static func relativeFolder(_ folder: String) -> String { AppStage.relativePath(of: folder) }

    func subject(of input: Input) -> String { "\(outputFolder)/\(Self.relativeFolder(input.folder))/Contents.json" }
    /// An unreadable description is not cached: its job fails.
    func cacheRoot(for input: Input) -> String? { input.contents.contentHash == nil ? nil : outputFolder }

    func run(_ input: Input, context: JobContext) throws -> AppCatalogSet {
        let folder = Self.relativeFolder(input.folder)
        let original = try SourceBytes(contentsOfFile: input.contents.path)
        var variants: [String: [DisplayScale: VariantEntry]] = [:]
        for variant in input.variants {
            variants[variant.group, default: [:]][variant.scale] = try variant.file.value(in: context).entry
        }
        let rewritten = try AppCatalogContents.rewrite(Array(UnsafeBufferPointer(start: original.pointer, count: original.count)),
                                                       file: input.contents.path, groups: input.groups, variants: variants)
        var entries: [DataEntry] = []
        for (name, variant) in rewritten.files.sorted(by: { $0.key < $1.key }) {
            try context.checkCancellation()
            let bytes = try SourceBytes(contentsOfFile: "\(outputFolder)/\(variant.path)")
            let copy = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
            // The variant as the manifest lists it, or the build would ship what it never checked.
            guard copy.count == variant.bytes, ContentHash.of(copy) == variant.sha256 else {
                throw TesseraError(.io, file: "\(outputFolder)/\(variant.path)", origin: ProblemOrigin(Self.kind),
                                   reason: "the variant changed on disk while the build ran")
            }
            let path = "\(folder)/\(name)"
            try AtomicFile.write(copy, to: "\(outputFolder)/\(path)", flushing: false)
            entries.append(DataEntry(name: input.name, kind: "image", path: path, bytes: copy.count, sha256: variant.sha256, tags: []))
        }
        let contentsPath = "\(folder)/Contents.json"
        try AtomicFile.write(rewritten.contents, to: "\(outputFolder)/\(contentsPath)", flushing: false)
        entries.append(DataEntry(name: input.name, kind: "image", path: contentsPath, bytes: rewritten.contents.count,
                                 sha256: ContentHash.of(rewritten.contents), tags: []))
        return AppCatalogSet(entries: entries)
    }
}

/// An in-app image set as written for Xcode: its files and rewritten description, as the
/// manifest's `app[]` lists them.
struct AppCatalogSet: CachedOutput {
    let entries: [DataEntry]

    var files: [String] { entries.map(\.path) }
    var knownHashes: [String: ContentHash] {
        Dictionary(entries.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
    }
}
