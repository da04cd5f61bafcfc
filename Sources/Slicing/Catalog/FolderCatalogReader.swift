import Foundation
import TesseraCore
import Yams

/// Reads a plain folder of images as assets: `name@2x~ipad.png`-style suffixes (anchored at the
/// end of the stem), Android resource folders (`drawable-xhdpi/icon.png` is asset `icon` at
/// 320 dpi, see `AndroidResourceFolder`), and an optional `tessera.yml` mapping globs over asset
/// names to on-demand tags:
///
/// ```yaml
/// tags:
///   "levels/one/**": [level1]
///   "**/boss": [level1, bosses]
/// ```
///
/// Asset catalogs (`*.xcassets`) inside the folder are read with `AssetCatalogReader`, each in its
/// own namespace (`CatalogNamespacing`). An asset name defined twice is an error naming both
/// files, and neither definition is used. Files whose real path leaves the folder are never read;
/// `excluding` folders (an output folder inside the input) are not scanned.
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

    static var densities: [String: Int] { AndroidResourceFolder.densities }
    static let idiomSuffixes = ["iphone", "ipad", "tv", "watch", "mac", "car", "vision"]
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
        var result = AssetCatalogReader.Result(assets: [], problems: [])
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError(.io, file: root, reason: "the input folder does not exist or is not a folder")
        }
        let boundary = InputBoundary(root: root, excluding: excluding)
        var grouped: [AssetID: [CatalogEntry]] = [:]
        var catalogs: [String] = []
        var warnedFolders: Set<String> = []
        // Hidden names are never read, nor is anything below a hidden folder.
        FolderWalk.walk(root: root) { entry in
            if entry.name.hasPrefix(".") { return false }
            let next = entry.path
            let path = "\(root)/\(next)"
            if entry.kind == .folder || next.hasSuffix(".xcassets") {
                if boundary.isExcluded(path) { return false }
                if next.hasSuffix(".xcassets") {
                    if boundary.contains(path) { catalogs.append(next) } else { outside(next, into: &result) }
                    return false
                }
                return true
            }
            let (fileStem, mixedCase) = Self.split(entry.name)
            let ext = mixedCase.lowercased()
            let android = entry.folders.last.flatMap(AndroidResourceFolder.init(folderName:))
            let format = ImageFormat(fileExtension: ext)
            let isDrawableXML = android != nil && ext == "xml"
            guard format != nil || isDrawableXML else {
                if Self.unhandledImageExtensions.contains(ext) {
                    result.problems.append(CatalogProblem(
                        isError: false, file: next, key: nil,
                        reason: "Tessera cannot handle '.\(ext)' images (not PNG, JPEG, WebP, GIF, PDF, SVG or HEIC); not carried"))
                }
                return false
            }
            // The walk never enters a link, so only a link can lead outside the folder.
            guard entry.kind != .symbolicLink || boundary.contains(path) else {
                outside(next, into: &result)
                return false
            }
            var traits = VariantTraits()
            var stem = fileStem, folders = entry.folders
            if let android {
                traits = android.traits
                let folder = folders.removeLast()
                if !android.unread.isEmpty, warnedFolders.insert(folder).inserted {
                    result.problems.append(CatalogProblem(
                        isError: false, file: (folders + [folder]).joined(separator: "/"), key: nil,
                        reason: "qualifier \(android.unread.map { "'\($0)'" }.joined(separator: ", ")) is not read; "
                            + "its files are treated as the default for it"))
                }
            } else {
                if let tilde = stem.lastIndex(of: "~"),
                   Self.idiomSuffixes.contains(String(stem[stem.index(after: tilde)...])) {
                    traits.idiom = String(stem[stem.index(after: tilde)...])
                    stem = String(stem[..<tilde])
                }
                let parsed = FileNameTraits.parse(stem: stem, unsuffixedScale: unsuffixedScale)
                traits.scale = parsed.scale
                stem = parsed.name
            }
            let name = (folders + [stem]).joined(separator: "/")
            grouped[AssetID(name), default: []].append(CatalogEntry(file: next, traits: traits, format: format))
            return false
        }
        let tagRules = try readTagRules(root: root, problems: &result.problems).map { (glob: Glob($0.glob), tags: $0.tags) }
        for (name, entries) in grouped {
            let tags = Array(Set(tagRules.filter { $0.glob.matches(name.name) }.flatMap(\.tags))).sorted()
            let sorted = entries.sorted { $0.file < $1.file }
            // Android XML drawables (vectors, shapes, selectors) are carried as data, apart from
            // the bitmaps of the same name.
            let images = sorted.filter { $0.format != nil }, xml = sorted.filter { $0.format == nil }
            if !images.isEmpty {
                result.assets.append(CatalogAsset(name: name, kind: .image, entries: images, tags: tags, contentsFile: nil))
            }
            if !xml.isEmpty {
                result.assets.append(CatalogAsset(name: name, kind: .data, entries: xml, tags: tags, contentsFile: nil))
            }
        }
        let prefixed = namespacing == .perCatalog && catalogs.count > 1
        for catalog in catalogs.sorted() {
            let read = AssetCatalogReader().read(catalogPath: "\(root)/\(catalog)", relativeTo: root, boundary: boundary)
            let namespace = CatalogNamespacing.namespace(ofCatalogAt: catalog)
            result.assets += read.assets.map { asset in
                var asset = asset
                if prefixed { asset.name = AssetID("\(namespace)/\(asset.name.name)") }
                return asset
            }
            result.problems += read.problems
        }
        result.assets = rejectingCollisions(result.assets, problems: &result.problems)
        result.assets.sort { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
        result.problems.sort()
        return result
    }

    private func outside(_ path: String, into result: inout AssetCatalogReader.Result) {
        result.problems.append(CatalogProblem(isError: true, file: path, key: nil,
                                              reason: "a link to a path outside the input folder; not read"))
    }

    /// Where an asset is defined, for messages: its set folder, or its first file.
    static func origin(of asset: CatalogAsset) -> String {
        func folder(_ file: String) -> String { file.split(separator: "/").dropLast().joined(separator: "/") }
        if let catalog = asset.catalog {
            if let contents = asset.contentsFile { return folder(contents) }
            if let file = asset.entries.first?.file { return folder(file) }
            return catalog
        }
        return asset.entries.first?.file ?? asset.name.name
    }

    /// Two assets of one kind family (images and app icons are one family: they share the
    /// variant names) with the same name: both are dropped and an error names both files.
    private func rejectingCollisions(_ assets: [CatalogAsset], problems: inout [CatalogProblem]) -> [CatalogAsset] {
        func family(_ asset: CatalogAsset) -> String {
            asset.kind == .image || asset.kind == .appIcon ? "image" : asset.kind.rawValue
        }
        let groups = Dictionary(grouping: assets) { "\(family($0))\u{0}\($0.name.name)" }
        var kept: [CatalogAsset] = []
        for (_, group) in groups {
            guard group.count > 1 else {
                kept += group
                continue
            }
            let origins = group.map(Self.origin(of:)).sorted()
            problems.append(CatalogProblem(
                isError: true, file: origins[0], key: nil,
                reason: "asset name '\(group[0].name.name)' is also defined by \(origins.dropFirst().joined(separator: ", ")); "
                    + "neither is used (see the catalog namespace rule in docs/variant-selection.md)"))
        }
        return kept
    }

    private func readTagRules(root: String, problems: inout [CatalogProblem]) throws(TesseraError)
        -> [(glob: String, tags: [String])] {
        let path = "\(root)/tessera.yml"
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return []
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            problems.append(CatalogProblem(isError: true, file: "tessera.yml", key: nil, reason: "not valid YAML: \(error)"))
            return []
        }
        guard let top = node?.mapping else { return [] }
        var rules: [(String, [String])] = []
        for (key, value) in top {
            guard key.string == "tags" else {
                problems.append(CatalogProblem(isError: false, file: "tessera.yml", key: key.string, reason: "unknown key"))
                continue
            }
            guard let mapping = value.mapping else {
                problems.append(CatalogProblem(isError: true, file: "tessera.yml", key: "tags",
                                               reason: "expected a mapping of globs to tag lists"))
                continue
            }
            for (glob, tags) in mapping {
                guard let pattern = glob.string, let list = tags.sequence?.compactMap(\.string) else {
                    problems.append(CatalogProblem(isError: true, file: "tessera.yml", key: "tags.\(glob.string ?? "?")",
                                                   reason: "expected a list of tags"))
                    continue
                }
                var valid: [String] = []
                for tag in list {
                    if let problem = OnDemandTag.problem(with: tag) {
                        problems.append(CatalogProblem(isError: true, file: "tessera.yml", key: "tags.\(pattern)",
                                                       reason: problem))
                    } else {
                        valid.append(tag)
                    }
                }
                rules.append((pattern, valid))
            }
        }
        return rules
    }
}
