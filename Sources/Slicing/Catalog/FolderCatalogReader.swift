import Foundation
import TesseraCore
import Yams

/// Reads a plain folder of images as assets: `name@2x~ipad.png`-style suffixes (anchored at the
/// end of the stem), Android density folders (`drawable-xhdpi/icon.png` is asset `icon` at
/// 320 dpi), and an optional `tessera.yml` mapping globs over asset names to on-demand tags:
///
/// ```yaml
/// tags:
///   "levels/one/**": [level1]
///   "**/boss": [level1, bosses]
/// ```
///
/// Asset catalogs (`*.xcassets`) inside the folder are read with `AssetCatalogReader`.
public struct FolderCatalogReader: Sendable {
    public var unsuffixedScale: DisplayScale

    public init(unsuffixedScale: DisplayScale = .x1) {
        self.unsuffixedScale = unsuffixedScale
    }

    static let densities = ["ldpi": 120, "mdpi": 160, "tvdpi": 213, "hdpi": 240, "xhdpi": 320, "xxhdpi": 480,
                            "xxxhdpi": 640]
    static let idiomSuffixes = ["iphone", "ipad", "tv", "watch", "mac", "car", "vision"]

    public func read(root: String) throws(TesseraError) -> AssetCatalogReader.Result {
        var result = AssetCatalogReader.Result(assets: [], problems: [])
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError(.io, file: root, reason: "the input folder does not exist or is not a folder")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw TesseraError(.io, file: root, reason: "the input folder does not exist or cannot be listed")
        }
        var grouped: [AssetID: [CatalogEntry]] = [:]
        var catalogs: [String] = []
        while let next = enumerator.nextObject() as? String {
            let components = next.split(separator: "/").map(String.init)
            if components.contains(where: { $0.hasPrefix(".") }) { continue }
            if next.hasSuffix(".xcassets") {
                catalogs.append(next)
                enumerator.skipDescendants()
                continue
            }
            let url = URL(fileURLWithPath: next)
            guard ImageFormat(fileExtension: url.pathExtension) != nil else { continue }
            var folders = Array(components.dropLast())
            var traits = VariantTraits()
            if let last = folders.last, last.hasPrefix("drawable-") || last.hasPrefix("mipmap-"),
               let bucket = last.split(separator: "-").last, let dpi = Self.densities[String(bucket)] {
                traits.densityDPI = dpi
                folders.removeLast()
            }
            var stem = url.deletingPathExtension().lastPathComponent
            if let tilde = stem.lastIndex(of: "~"), Self.idiomSuffixes.contains(String(stem[stem.index(after: tilde)...])) {
                traits.idiom = String(stem[stem.index(after: tilde)...])
                stem = String(stem[..<tilde])
            }
            let parsed = FileNameTraits.parse(stem: stem, unsuffixedScale: unsuffixedScale)
            traits.scale = traits.densityDPI == nil ? parsed.scale : nil
            let name = (folders + [parsed.name]).joined(separator: "/")
            grouped[AssetID(name), default: []].append(CatalogEntry(file: next, traits: traits))
        }
        let tagRules = try readTagRules(root: root, problems: &result.problems)
        for (name, entries) in grouped {
            let tags = tagRules.filter { Glob($0.glob).matches(name.name) }.flatMap(\.tags)
            result.assets.append(CatalogAsset(name: name, kind: .image, entries: entries.sorted { $0.file < $1.file },
                                              tags: Array(Set(tags)).sorted(), contentsFile: nil))
        }
        for catalog in catalogs.sorted() {
            let read = AssetCatalogReader().read(catalogPath: "\(root)/\(catalog)", relativeTo: root)
            result.assets += read.assets
            result.problems += read.problems
        }
        result.assets.sort { $0.name < $1.name }
        result.problems.sort()
        return result
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
                rules.append((pattern, list))
            }
        }
        return rules
    }
}
