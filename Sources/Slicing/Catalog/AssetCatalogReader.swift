import Delivery
import Foundation
import TesseraCore

/// Reads Xcode `.xcassets` catalogs: image sets, data sets, app icon sets, colour sets and
/// symbol sets, inside groups with or without `provides-namespace`.
///
/// Strict but forgiving: malformed JSON, a missing file, an unknown key or value is reported with
/// the catalog path, the Contents.json and the key, and every valid asset is still returned.
/// Entries without a `filename` are empty slots, not errors. A group folder's
/// `on-demand-resource-tags` apply to every set inside it (merged with the set's own), as in Xcode.
/// A `filename` that leaves its set folder, or any file or folder whose real path is outside the
/// input folder, is an error and is never read.
///
/// The walk is here; each Contents.json is read into a typed model (`SetContents`,
/// `GroupContents`) and each kind of set made into an asset by its reader (`ImageSetReader`,
/// `DataSetReader`).
public struct AssetCatalogReader: Sendable {
    public init() {}

    public struct Result: Sendable {
        public var assets: [CatalogAsset]
        public var problems: [CatalogProblem]
    }

    /// Reads the catalog at `catalogPath`; file paths in the result are relative to `root`, and no
    /// file outside `root` is read.
    public func read(catalogPath: String, relativeTo root: String) -> Result {
        read(catalogPath: catalogPath, relativeTo: root, boundary: InputBoundary(root: root))
    }

    func read(catalogPath: String, relativeTo root: String, boundary: InputBoundary) -> Result {
        var result = Result(assets: [], problems: [])
        let context = CatalogReadContext(root: root, catalogPath: catalogPath, boundary: boundary)
        // The catalog and the folders above it up to the input's root count as read: a link up to
        // one of them would read the app's whole tree as catalog groups.
        var walked: Set<FolderIdentity> = []
        var above = catalogPath
        while true {
            if let identity = FolderIdentity(of: above) { walked.insert(identity) }
            guard above.count > root.count, above.hasPrefix(root) else { break }
            above = (above as NSString).deletingLastPathComponent
        }
        walk(folder: catalogPath, namespace: [], inheritedTags: [], context: context, walked: &walked, into: &result)
        result.assets.sort { $0.name < $1.name }
        result.problems.sort()
        return result
    }

    /// `inLayer`: the folder is a layer of a layered image, whose one `Content.imageset` is named
    /// after the layer.
    /// `walked`: the folders read so far, by identity: a link to one of them (`up -> ..`) is not
    /// followed, so every folder is read once and the walk is linear in the tree.
    private func walk(folder: String, namespace: [String], inheritedTags: [String], context: CatalogReadContext,
                      inLayer: Bool = false, walked: inout Set<FolderIdentity>, into result: inout Result) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            guard context.boundary.contains(path) else {
                result.problems.append(CatalogProblem(isError: true, file: context.relative(path), key: nil,
                                                      reason: "a link to a folder outside the input folder; not read"))
                continue
            }
            if context.boundary.isExcluded(path) { continue }
            if let identity = FolderIdentity(of: path), !walked.insert(identity).inserted {
                result.problems.append(CatalogProblem(isError: false, file: context.relative(path), key: nil,
                                                      reason: "a link to a folder already read (an ancestor or another link to it); not read again"))
                continue
            }
            let url = URL(fileURLWithPath: name)
            let stem = url.deletingPathExtension().lastPathComponent
            let contentsPath = "\(path)/Contents.json"
            let file = context.relative(contentsPath)
            if let kind = SetKind(rawValue: url.pathExtension) {
                guard let top = ContentsFile.read(contentsPath, file: file, boundary: context.boundary, required: true,
                                                  problems: &result.problems) else { continue }
                let contents = SetContents(top, kind: kind, problems: &result.problems)
                let tags = Array(Set(inheritedTags + contents.properties.onDemandTags)).sorted()
                let assetName = (inLayer && stem == "Content" ? namespace : namespace + [stem]).joined(separator: "/")
                let reader = kind.holdsImages ? ImageSetReader.asset : DataSetReader.asset
                let asset = reader(contents, path, assetName, tags, context, &result.problems)
                result.assets.append(asset)
                continue
            }
            switch GroupContents.Kind(folderExtension: url.pathExtension) {
            case .group:
                let top = ContentsFile.read(contentsPath, file: file, boundary: context.boundary, required: false,
                                            problems: &result.problems)
                let group = GroupContents(group: top, problems: &result.problems)
                walk(folder: path, namespace: group.providesNamespace ? namespace + [name] : namespace,
                     inheritedTags: Array(Set(inheritedTags + group.onDemandTags)).sorted(), context: context,
                     walked: &walked, into: &result)
            case .complicationSet, .brandAssets, .layeredImage, .layer:
                let kind = GroupContents.Kind(folderExtension: url.pathExtension)!
                let top = ContentsFile.read(contentsPath, file: file, boundary: context.boundary, required: kind != .layer,
                                            problems: &result.problems)
                result.problems += GroupContents.listProblems(top, kind: kind, folder: path)
                walk(folder: path, namespace: namespace + [stem], inheritedTags: inheritedTags, context: context,
                     inLayer: kind == .layer, walked: &walked, into: &result)
            case nil where url.pathExtension == "iconset":
                if let asset = MacIconSet.asset(folder: path, name: (namespace + [stem]).joined(separator: "/"),
                                                tags: inheritedTags, catalog: context.catalog, context: context,
                                                problems: &result.problems) {
                    result.assets.append(asset)
                }
            case nil where IconComposerIcon.isBundle(path):
                if let asset = IconComposerIcon.asset(folder: path, name: (namespace + [stem]).joined(separator: "/"),
                                                      tags: inheritedTags, catalog: context.catalog, context: context,
                                                      problems: &result.problems) {
                    result.assets.append(asset)
                }
            case nil:
                result.problems.append(CatalogProblem(
                    isError: false, file: context.relative(path), key: nil,
                    reason: "'.\(url.pathExtension)' folders are not supported; skipped"))
            }
        }
    }
}
