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
public struct AssetCatalogReader: Sendable {
    public init() {}

    public struct Result: Sendable {
        public var assets: [CatalogAsset]
        public var problems: [CatalogProblem]
    }

    /// Entry keys Xcode writes. The ones Tessera does not act on (size classes, locale, subtype...)
    /// are accepted quietly: every entry is still read and shipped.
    static let imageKeys: Set<String> = [
        "filename", "idiom", "scale", "subtype", "memory", "graphics-feature-set", "display-gamut", "appearances",
        "compression-type", "template-rendering-intent", "size", "role", "platform", "width-class", "height-class",
        "language-direction", "locale", "unassigned", "matching-style", "screen-width", "expected-size",
        "minimum-system-version", "orientation", "extent", "universal-type-identifier", "color", "symbols",
    ]
    static let idioms: Set<String> = [
        "universal", "iphone", "ipad", "mac", "tv", "watch", "car", "vision", "ios-marketing", "watch-marketing",
        "mac-catalyst", "marketing",
    ]
    static let propertyKeys: Set<String> = [
        "on-demand-resource-tags", "preserves-vector-representation", "template-rendering-intent",
        "compression-type", "localizable", "provides-namespace", "auto-scaling", "symbol-rendering-intent", "scales",
    ]
    static let renderingIntents: Set<String> = ["template", "original"]

    /// Reads the catalog at `catalogPath`; file paths in the result are relative to `root`, and no
    /// file outside `root` is read.
    public func read(catalogPath: String, relativeTo root: String) -> Result {
        read(catalogPath: catalogPath, relativeTo: root, boundary: InputBoundary(root: root))
    }

    func read(catalogPath: String, relativeTo root: String, boundary: InputBoundary) -> Result {
        var result = Result(assets: [], problems: [])
        let context = Context(root: root, catalog: relative(catalogPath, to: root), boundary: boundary)
        walk(folder: catalogPath, namespace: [], inheritedTags: [], context: context, into: &result)
        result.assets.sort { $0.name < $1.name }
        result.problems.sort()
        return result
    }

    private struct Context {
        let root: String
        let catalog: String
        let boundary: InputBoundary
    }

    private func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    private func walk(folder: String, namespace: [String], inheritedTags: [String], context: Context,
                      into result: inout Result) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            guard context.boundary.contains(path) else {
                result.problems.append(CatalogProblem(
                    isError: true, file: relative(path, to: context.root), key: nil,
                    reason: "a link to a folder outside the input folder; not read"))
                continue
            }
            if context.boundary.isExcluded(path) { continue }
            let url = URL(fileURLWithPath: name)
            let stem = url.deletingPathExtension().lastPathComponent
            switch url.pathExtension {
            case "", "spriteatlas":
                // A sprite atlas is a group as far as its sets go (SpriteKit packs them at run time).
                let contentsPath = "\(path)/Contents.json"
                let contents = readContents(contentsPath, context: context, into: &result, required: false)
                let properties = contents?["properties"] as? [String: Any] ?? [:]
                let file = relative(contentsPath, to: context.root)
                for key in properties.keys.sorted() where !["provides-namespace", "on-demand-resource-tags"].contains(key) {
                    result.problems.append(CatalogProblem(isError: false, file: file, key: "properties.\(key)",
                                                          reason: "unknown key"))
                }
                let namespaced = properties["provides-namespace"] as? Bool ?? false
                let tags = readTags(properties, file: file) { result.problems.append($0) }
                walk(folder: path, namespace: namespaced ? namespace + [name] : namespace,
                     inheritedTags: Array(Set(inheritedTags + tags)).sorted(), context: context, into: &result)
            case "complicationset":
                // A watch complication set is a group of image sets, one per complication family
                // (`role`), that the system draws; its sets are read under its name.
                let contentsPath = "\(path)/Contents.json"
                let contents = readContents(contentsPath, context: context, into: &result)
                let file = relative(contentsPath, to: context.root)
                for (index, item) in (contents?["assets"] as? [[String: Any]] ?? []).enumerated() {
                    for key in item.keys.sorted() where !["filename", "idiom", "role"].contains(key) {
                        result.problems.append(CatalogProblem(isError: false, file: file, key: "assets[\(index)].\(key)",
                                                              reason: "unknown key"))
                    }
                }
                walk(folder: path, namespace: namespace + [stem], inheritedTags: inheritedTags, context: context,
                     into: &result)
            case "imageset", "dataset", "appiconset", "colorset", "symbolset":
                readSet(path, kind: url.pathExtension, name: (namespace + [stem]).joined(separator: "/"),
                        inheritedTags: inheritedTags, context: context, into: &result)
            default:
                result.problems.append(CatalogProblem(
                    isError: false, file: relative(path, to: context.root), key: nil,
                    reason: "'.\(url.pathExtension)' folders are not supported; skipped"))
            }
        }
    }

    private func readContents(_ path: String, context: Context, into result: inout Result,
                              required: Bool = true) -> [String: Any]? {
        let file = relative(path, to: context.root)
        if FileManager.default.fileExists(atPath: path), !context.boundary.contains(path) {
            result.problems.append(CatalogProblem(isError: true, file: file, key: nil,
                                                  reason: "a link to a file outside the input folder; not read"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if required {
                result.problems.append(CatalogProblem(isError: true, file: file, key: nil, reason: "missing Contents.json"))
            }
            return nil
        }
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                result.problems.append(CatalogProblem(isError: true, file: file, key: nil,
                                                      reason: "the top level is not a JSON object"))
                return nil
            }
            return object
        } catch {
            result.problems.append(CatalogProblem(isError: true, file: file, key: nil,
                                                  reason: "malformed JSON: \(error.localizedDescription)"))
            return nil
        }
    }

    /// `properties.on-demand-resource-tags`, validated: an invalid tag is an error and is left out.
    private func readTags(_ properties: [String: Any], file: String, report: (CatalogProblem) -> Void) -> [String] {
        let key = "properties.on-demand-resource-tags"
        guard let raw = properties["on-demand-resource-tags"] else { return [] }
        guard let list = raw as? [String] else {
            report(CatalogProblem(isError: true, file: file, key: key, reason: "expected a list of strings"))
            return []
        }
        var tags: [String] = []
        for tag in list {
            if let problem = OnDemandTag.problem(with: tag) {
                report(CatalogProblem(isError: true, file: file, key: key, reason: problem))
            } else {
                tags.append(tag)
            }
        }
        return Array(Set(tags)).sorted()
    }

    private func readSet(_ folder: String, kind: String, name: String, inheritedTags: [String], context: Context,
                         into result: inout Result) {
        let contentsPath = "\(folder)/Contents.json"
        let file = relative(contentsPath, to: context.root)
        guard let contents = readContents(contentsPath, context: context, into: &result) else { return }
        var problems: [CatalogProblem] = []
        func warn(_ key: String?, _ reason: String, error: Bool = false) {
            problems.append(CatalogProblem(isError: error, file: file, key: key, reason: reason))
        }
        for key in contents.keys.sorted() where !["images", "data", "info", "properties", "colors", "symbols"].contains(key) {
            warn(key, "unknown key")
        }
        let properties = contents["properties"] as? [String: Any] ?? [:]
        if contents["properties"] != nil && contents["properties"] as? [String: Any] == nil {
            warn("properties", "expected an object", error: true)
        }
        for key in properties.keys.sorted() where !Self.propertyKeys.contains(key) { warn("properties.\(key)", "unknown key") }
        let tags = Array(Set(inheritedTags + readTags(properties, file: file) { problems.append($0) })).sorted()
        var preservesVector = false
        if let raw = properties["preserves-vector-representation"] {
            if let value = raw as? Bool { preservesVector = value } else {
                warn("properties.preserves-vector-representation", "expected true or false", error: true)
            }
        }
        var renderingIntent: String?
        if let raw = properties["template-rendering-intent"] {
            if let value = raw as? String, Self.renderingIntents.contains(value) { renderingIntent = value } else {
                warn("properties.template-rendering-intent", "expected \"template\" or \"original\"", error: true)
            }
        }
        var declaredSingleScale = preservesVector
        if let raw = properties["scales"] {
            if let value = raw as? String, value == "single" || value == "individual" {
                declaredSingleScale = declaredSingleScale || value == "single"
            } else {
                warn("properties.scales", "expected \"single\" or \"individual\"", error: true)
            }
        }
        let assetKind: CatalogAsset.Kind = switch kind {
        case "dataset": .data
        case "appiconset": .appIcon
        case "colorset": .color
        case "symbolset": .symbol
        default: .image
        }
        var entries: [CatalogEntry] = []
        var anyScale = false
        var filled = 0
        let listKey = kind == "dataset" ? "data" : kind == "colorset" ? "colors" : kind == "symbolset" ? "symbols" : "images"
        let list = contents[listKey] as? [[String: Any]] ?? []
        if contents[listKey] != nil && contents[listKey] as? [[String: Any]] == nil {
            warn(listKey, "expected a list of objects", error: true)
        }
        for (index, item) in list.enumerated() {
            let keyPath = "\(listKey)[\(index)]"
            for key in item.keys.sorted() where !Self.imageKeys.contains(key) { warn("\(keyPath).\(key)", "unknown key") }
            guard assetKind != .color, let rawName = item["filename"] else { continue }
            guard let filename = rawName as? String else {
                warn("\(keyPath).filename", "expected a string", error: true)
                continue
            }
            guard InputBoundary.isPlainName(filename) else {
                warn("\(keyPath).filename", "'\(filename)' leaves the set folder; not read", error: true)
                continue
            }
            let path = "\(folder)/\(filename)"
            guard FileManager.default.fileExists(atPath: path) else {
                warn("\(keyPath).filename", "'\(filename)' does not exist", error: true)
                continue
            }
            guard context.boundary.contains(path) else {
                warn("\(keyPath).filename", "'\(filename)' is a link to a file outside the input folder; not read",
                     error: true)
                continue
            }
            let format = ImageFormat(fileExtension: URL(fileURLWithPath: filename).pathExtension)
            if format == nil, assetKind == .image || assetKind == .appIcon {
                warn("\(keyPath).filename", "Tessera cannot handle '\(filename)' (not PNG, JPEG, WebP, GIF, PDF, SVG "
                     + "or HEIC); not carried")
                continue
            }
            guard let traits = traits(of: item, keyPath: keyPath, warn: { warn($0, $1, error: $2) }) else { continue }
            var entryIntent: String?
            if let raw = item["template-rendering-intent"] {
                if let value = raw as? String, Self.renderingIntents.contains(value) { entryIntent = value } else {
                    warn("\(keyPath).template-rendering-intent", "expected \"template\" or \"original\"", error: true)
                }
            }
            filled += 1
            if traits.scale != nil { anyScale = true }
            entries.append(CatalogEntry(file: relative(path, to: context.root), traits: traits, format: format,
                                        templateRenderingIntent: entryIntent))
        }
        result.problems += problems
        let isImage = assetKind == .image || assetKind == .appIcon
        result.assets.append(CatalogAsset(
            name: AssetID(name), kind: assetKind, entries: entries, tags: tags,
            contentsFile: assetKind == .color || assetKind == .symbol ? file : nil,
            isSingleScale: isImage && (declaredSingleScale || (filled > 0 && !anyScale)),
            preservesVectorRepresentation: preservesVector, templateRenderingIntent: renderingIntent,
            catalog: context.catalog))
    }

    /// Reads one entry's traits; nil (with an error) when a value makes the entry unusable.
    private func traits(of item: [String: Any], keyPath: String,
                        warn: (String, String, Bool) -> Void) -> VariantTraits? {
        // Every trait value is a string in Xcode's format; a number (`"scale": 2`) is an error,
        // never a silent "any scale".
        for key in ["idiom", "scale", "memory", "graphics-feature-set", "display-gamut", "size", "language-direction",
                    "screen-width", "platform"] {
            if let value = item[key], !(value is String) {
                warn("\(keyPath).\(key)", "expected a string (like \(Self.example(key))), found \(value)", true)
                return nil
            }
        }
        var traits = VariantTraits()
        if let idiom = item["idiom"] as? String {
            if !Self.idioms.contains(idiom) { warn("\(keyPath).idiom", "unknown idiom '\(idiom)'", false) }
            traits.idiom = idiom
        }
        if let scale = item["scale"] as? String {
            guard let parsed = DisplayScale(parsing: scale) else {
                warn("\(keyPath).scale", "'\(scale)' is not a scale like 2x", true)
                return nil
            }
            traits.scale = parsed
        }
        if let memory = item["memory"] as? String {
            guard memory.hasSuffix("GB"), let value = Int(memory.dropLast(2)), value > 0 else {
                warn("\(keyPath).memory", "'\(memory)' is not a memory class like 2GB", true)
                return nil
            }
            traits.memoryGB = value
        }
        if let family = item["graphics-feature-set"] as? String {
            guard GraphicsFamily.rank(of: family) != nil else {
                warn("\(keyPath).graphics-feature-set", "unknown graphics feature set '\(family)'", true)
                return nil
            }
            traits.graphicsFeatureSet = family
        }
        if let gamut = item["display-gamut"] as? String {
            guard let parsed = DisplayGamut(rawValue: gamut) else {
                warn("\(keyPath).display-gamut", "'\(gamut)' is not sRGB or display-P3", true)
                return nil
            }
            traits.displayGamut = parsed
        }
        if let direction = item["language-direction"] as? String {
            guard let parsed = LayoutDirection(rawValue: direction) else {
                warn("\(keyPath).language-direction", "'\(direction)' is not left-to-right or right-to-left", true)
                return nil
            }
            traits.layoutDirection = parsed
        }
        if let width = item["screen-width"] as? String {
            guard let parsed = ScreenWidthCondition(parsing: width) else {
                warn("\(keyPath).screen-width", "'\(width)' is not a width condition like >183", true)
                return nil
            }
            traits.screenWidth = parsed
        }
        traits.size = item["size"] as? String
        traits.platform = item["platform"] as? String
        if let appearances = item["appearances"] as? [[String: String]] {
            traits.appearances = appearances.compactMap { $0["value"] }.sorted()
        }
        return traits
    }

    private static func example(_ key: String) -> String {
        switch key {
        case "scale": "\"2x\""
        case "memory": "\"2GB\""
        case "screen-width": "\">183\""
        case "language-direction": "\"right-to-left\""
        case "display-gamut": "\"display-P3\""
        case "graphics-feature-set": "\"apple5\""
        case "size": "\"60x60\""
        case "platform": "\"ios\""
        default: "\"universal\""
        }
    }
}
