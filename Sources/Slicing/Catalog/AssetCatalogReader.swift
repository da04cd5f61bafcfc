import Foundation
import TesseraCore

/// Reads Xcode `.xcassets` catalogs: image sets, data sets, app icon sets, colour sets and
/// symbol sets, inside groups with or without `provides-namespace`.
///
/// Strict but forgiving: malformed JSON, a missing file, an unknown key or value is reported with
/// the catalog path, the Contents.json and the key, and every valid asset is still returned.
/// Entries without a `filename` are empty slots, not errors.
public struct AssetCatalogReader: Sendable {
    public init() {}

    public struct Result: Sendable {
        public var assets: [CatalogAsset]
        public var problems: [CatalogProblem]
    }

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
        "compression-type", "localizable", "provides-namespace", "auto-scaling", "symbol-rendering-intent",
    ]

    /// Reads the catalog at `catalogPath`; file paths in the result are relative to `root`.
    public func read(catalogPath: String, relativeTo root: String) -> Result {
        var result = Result(assets: [], problems: [])
        walk(folder: catalogPath, namespace: [], root: root, into: &result)
        result.assets.sort { $0.name < $1.name }
        result.problems.sort()
        return result
    }

    private func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    private func walk(folder: String, namespace: [String], root: String, into result: inout Result) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let url = URL(fileURLWithPath: name)
            let stem = url.deletingPathExtension().lastPathComponent
            switch url.pathExtension {
            case "":
                let contents = readContents("\(path)/Contents.json", root: root, into: &result, required: false)
                let properties = contents?["properties"] as? [String: Any]
                let namespaced = properties?["provides-namespace"] as? Bool ?? false
                walk(folder: path, namespace: namespaced ? namespace + [name] : namespace, root: root, into: &result)
            case "imageset", "dataset", "appiconset", "colorset", "symbolset":
                readSet(path, kind: url.pathExtension, name: (namespace + [stem]).joined(separator: "/"), root: root,
                        into: &result)
            default:
                result.problems.append(CatalogProblem(
                    isError: false, file: relative(path, to: root), key: nil,
                    reason: "'.\(url.pathExtension)' folders are not supported; skipped"))
            }
        }
    }

    private func readContents(_ path: String, root: String, into result: inout Result,
                              required: Bool = true) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if required {
                result.problems.append(CatalogProblem(isError: true, file: relative(path, to: root), key: nil,
                                                      reason: "missing Contents.json"))
            }
            return nil
        }
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                result.problems.append(CatalogProblem(isError: true, file: relative(path, to: root), key: nil,
                                                      reason: "the top level is not a JSON object"))
                return nil
            }
            return object
        } catch {
            result.problems.append(CatalogProblem(isError: true, file: relative(path, to: root), key: nil,
                                                  reason: "malformed JSON: \(error.localizedDescription)"))
            return nil
        }
    }

    private func readSet(_ folder: String, kind: String, name: String, root: String, into result: inout Result) {
        let contentsPath = "\(folder)/Contents.json"
        let file = relative(contentsPath, to: root)
        guard let contents = readContents(contentsPath, root: root, into: &result) else { return }
        var problems: [CatalogProblem] = []
        func warn(_ key: String?, _ reason: String, error: Bool = false) {
            problems.append(CatalogProblem(isError: error, file: file, key: key, reason: reason))
        }
        for key in contents.keys where !["images", "data", "info", "properties", "colors", "symbols"].contains(key) {
            warn(key, "unknown key")
        }
        let properties = contents["properties"] as? [String: Any] ?? [:]
        for key in properties.keys.sorted() where !Self.propertyKeys.contains(key) { warn("properties.\(key)", "unknown key") }
        var tags: [String] = []
        if let raw = properties["on-demand-resource-tags"] {
            if let list = raw as? [String] { tags = Array(Set(list)).sorted() } else {
                warn("properties.on-demand-resource-tags", "expected a list of strings", error: true)
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
        let listKey = kind == "dataset" ? "data" : kind == "colorset" ? "colors" : kind == "symbolset" ? "symbols" : "images"
        let list = contents[listKey] as? [[String: Any]] ?? []
        if contents[listKey] != nil && contents[listKey] as? [[String: Any]] == nil {
            warn(listKey, "expected a list of objects", error: true)
        }
        for (index, item) in list.enumerated() {
            let keyPath = "\(listKey)[\(index)]"
            for key in item.keys.sorted() where !Self.imageKeys.contains(key) { warn("\(keyPath).\(key)", "unknown key") }
            guard assetKind != .color, let filename = item["filename"] as? String else { continue }
            let path = "\(folder)/\(filename)"
            guard FileManager.default.fileExists(atPath: path) else {
                warn("\(keyPath).filename", "'\(filename)' does not exist", error: true)
                continue
            }
            guard let traits = traits(of: item, keyPath: keyPath, warn: { warn($0, $1, error: $2) }) else { continue }
            entries.append(CatalogEntry(file: relative(path, to: root), traits: traits))
        }
        result.problems += problems
        result.assets.append(CatalogAsset(name: AssetID(name), kind: assetKind, entries: entries, tags: tags,
                                          contentsFile: assetKind == .color || assetKind == .symbol ? file : nil))
    }

    /// Reads one entry's traits; nil (with an error) when a value makes the entry unusable.
    private func traits(of item: [String: Any], keyPath: String,
                        warn: (String, String, Bool) -> Void) -> VariantTraits? {
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
            guard gamut == "sRGB" || gamut == "display-P3" else {
                warn("\(keyPath).display-gamut", "'\(gamut)' is not sRGB or display-P3", true)
                return nil
            }
            traits.displayGamut = gamut
        }
        traits.size = item["size"] as? String
        if let appearances = item["appearances"] as? [[String: String]] {
            traits.appearances = appearances.compactMap { $0["value"] }.sorted()
        }
        return traits
    }
}
