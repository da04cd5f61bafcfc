import Foundation
import TesseraCore

/// A macOS `.iconset` folder (what `iconutil` turns into an `.icns`): PNGs named by slot,
/// `icon_16x16.png`, `icon_16x16@2x.png` … `icon_512x512@2x.png`, with no Contents.json. Read as
/// a Mac app icon: one entry per file, idiom `mac`, the slot size and scale from the name, so Macs
/// get the slots they draw and no other device gets any.
enum MacIconSet {
    /// The slot sides `iconutil` takes, in points.
    static let sides = [16, 32, 128, 256, 512]

    /// The icon set at `folder` as an asset named `name`; nil (with a warning) when it holds no
    /// slot file. Files that are not slots are named in a warning; links outside the input are errors.
    /// `catalog`: the catalog holding it, relative to the input; nil in a plain folder.
    static func asset(folder: String, name: String, tags: [String], catalog: String?, context: CatalogReadContext,
                      problems: inout [CatalogProblem]) -> CatalogAsset? {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var entries: [CatalogEntry] = []
        for file in files where !file.hasPrefix(".") {
            let path = "\(folder)/\(file)"
            guard let (side, scale) = slot(of: file) else {
                problems.append(CatalogProblem(isError: false, file: context.relative(path), key: nil,
                                               reason: "not an icon slot file (icon_16x16.png … icon_512x512@2x.png); not carried"))
                continue
            }
            guard context.boundary.contains(path) else {
                problems.append(CatalogProblem(isError: true, file: context.relative(path), key: nil,
                                               reason: "a link to a file outside the input folder; not read"))
                continue
            }
            var traits = VariantTraits(idiom: "mac", scale: scale)
            traits.size = "\(side)x\(side)"
            entries.append(CatalogEntry(file: context.relative(path), traits: traits, format: .png))
        }
        guard !entries.isEmpty else {
            problems.append(CatalogProblem(isError: false, file: context.relative(folder), key: nil,
                                           reason: "the icon set '\(name)' holds no icon slot file: nothing is built for it"))
            return nil
        }
        return CatalogAsset(name: AssetID(name), kind: .appIcon, entries: entries, tags: tags, contentsFile: nil,
                            catalog: catalog)
    }

    /// `icon_32x32@2x.png` → (32, 2x).
    static func slot(of file: String) -> (Int, DisplayScale)? {
        guard file.hasPrefix("icon_"), file.lowercased().hasSuffix(".png") else { return nil }
        var stem = String(file.dropFirst("icon_".count).dropLast(".png".count))
        var scale = DisplayScale.x1
        if stem.hasSuffix("@2x") {
            scale = .x2
            stem.removeLast(3)
        }
        let parts = stem.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), parts[0] == parts[1], sides.contains(width) else { return nil }
        return (width, scale)
    }
}
