import Foundation
import TesseraCore

/// Reads a plain folder of images as assets: `name@2x~ipad.png`-style suffixes (anchored at the
/// end of the stem, `XcodeFileName`), Android resource folders (`drawable-xhdpi/icon.png` is asset
/// `icon` at 320 dpi, see `AndroidResourceFolder`), and an optional `tessera.yml` mapping globs
/// over asset names to on-demand tags (`FolderTagRules`):
///
/// ```yaml
/// tags:
///   "levels/one/**": [level1]
///   "**/boss": [level1, bosses]
/// ```
///
/// Asset catalogs (`*.xcassets`) inside the folder are read with `AssetCatalogReader`, each in its
/// own namespace (`CatalogNamespacing`). An asset name defined twice is an error naming both
/// files, and neither definition is used (`AssetNameCollisions`). Files whose real path leaves
/// the folder are never read; `excluding` folders (an output folder inside the input) are not scanned.
public struct FolderCatalogReader: Sendable {
    public var unsuffixedScale: DisplayScale
    /// Folders the scan skips (absolute, or relative to the working directory).
    public var excluding: [String]
    public var namespacing: CatalogNamespacing

    public init(unsuffixedScale: DisplayScale = .x1, excluding: [String] = [],
                namespacing: CatalogNamespacing = .perCatalog) {
        self.unsuffixedScale = unsuffixedScale
        self.excluding = excluding
        self.namespacing = namespacing
    }

    /// Image formats people keep next to their assets that Tessera can neither decode nor carry:
    /// named in a warning rather than skipped in silence.
    static let unhandledImageExtensions: Set<String> = [
        "tif", "tiff", "bmp", "psd", "ico", "icns", "avif", "jxl", "jp2", "j2k", "exr", "tga", "dng", "eps", "ai",
        "xcf", "heics", "avifs",
    ]

    /// A file name as its stem and extension, split at the last dot as `URL.pathExtension` and
    /// `deletingPathExtension()` split it for every extension the reader acts on (an extension
    /// `URL` refuses, one with a space, is one the reader does not know either).
    static func split(_ name: String) -> (stem: String, extension: String) {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    public func read(root: String) throws(TesseraError) -> AssetCatalogReader.Result {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError(.io, file: root, reason: "the input folder does not exist or is not a folder")
        }
        let boundary = InputBoundary(root: root, excluding: excluding)
        // `--input App/Assets.xcassets` is what people type: the catalog is read as a catalog (its
        // sets, tags and colour sets), not walked as a folder of files named the Xcode way.
        if CatalogNamespacing.isCatalog(root) {
            var result = AssetCatalogReader().read(catalogPath: root, relativeTo: root, boundary: boundary)
            Self.applyTagFile(at: root, to: &result)
            result.assets = AssetNameCollisions.rejecting(ListableNames.rejecting(result.assets, problems: &result.problems),
                                                          problems: &result.problems)
            result.assets.sort { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
            result.problems.sort()
            return result
        }
        var scan = FolderScan(root: root, boundary: boundary, unsuffixedScale: unsuffixedScale)
        FolderWalk.walk(root: root) { scan.visit($0) }
        var result = AssetCatalogReader.Result(assets: [], problems: scan.problems)
        result.assets = scan.assets()
        let folderContext = CatalogReadContext(root: root, catalogPath: root, boundary: boundary)
        for iconSet in scan.iconSets.sorted() {
            let name = String(iconSet.dropLast(".iconset".count))
            if let asset = MacIconSet.asset(folder: "\(root)/\(iconSet)", name: name, tags: [], catalog: nil, context: folderContext,
                                            problems: &result.problems) {
                result.assets.append(asset)
            }
        }
        for icon in scan.iconComposers.sorted() {
            let name = String(icon.dropLast(".icon".count))
            if let asset = IconComposerIcon.asset(folder: "\(root)/\(icon)", name: name, tags: [], catalog: nil,
                                                  context: folderContext, problems: &result.problems) {
                result.assets.append(asset)
            }
        }
        let prefixed = namespacing == .perCatalog && scan.catalogs.count > 1
        for catalog in scan.catalogs.sorted() {
            let read = AssetCatalogReader().read(catalogPath: "\(root)/\(catalog)", relativeTo: root, boundary: boundary)
            let namespace = CatalogNamespacing.namespace(ofCatalogAt: catalog)
            result.assets += read.assets.map { asset in
                var asset = asset
                if prefixed { asset.name = AssetID("\(namespace)/\(asset.name.name)") }
                return asset
            }
            result.problems += read.problems
        }
        Self.applyTagFile(at: root, to: &result)
        result.assets = AssetNameCollisions.rejecting(ListableNames.rejecting(result.assets, problems: &result.problems),
                                                      problems: &result.problems)
        result.assets.sort { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
        result.problems.sort()
        return result
    }
}

extension FolderCatalogReader {
    /// The input root's `tessera.yml` tags every asset read, catalog sets included.
    static func applyTagFile(at root: String, to result: inout AssetCatalogReader.Result) {
        let file = FolderTagRules(root: root, problems: &result.problems)
        let (assets, problems) = file.rules.apply(to: result.assets)
        result.assets = assets
        result.problems += problems
    }
}
