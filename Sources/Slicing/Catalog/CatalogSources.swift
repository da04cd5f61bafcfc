import Foundation
import TesseraCore

/// Turns catalog and folder assets into the per-scale source images the build plans variants from.
///
/// The build makes 1x/2x/3x per *trait set*: entries of one asset that differ in idiom,
/// appearance, gamut, memory or GPU family become separate variant groups, named by the asset and
/// a suffix (`icon~ipad`, `icon~dark`, `icon~P3`, `icon~2GB`, `icon~apple5`), so that none of them
/// is mistaken for a duplicate of another. App icon slots (`~60x60`) and Android density entries
/// (`~xhdpi`) are copied as they are; Tessera does not resize them.
public enum CatalogSources {
    /// The source images, the tags of each variant group, and the groups that are only copied
    /// (app icons and Android densities: their files are made for their slots, never resized).
    public static func sourceImages(_ assets: [CatalogAsset], unsuffixedScale: DisplayScale)
        -> (images: [SourceImage], tags: [AssetID: [String]], copyOnly: Set<AssetID>) {
        var images: [SourceImage] = []
        var tags: [AssetID: [String]] = [:]
        var copyOnly: Set<AssetID> = []
        for asset in assets where asset.kind == .image || asset.kind == .appIcon {
            for entry in asset.entries {
                let ext = URL(fileURLWithPath: entry.file).pathExtension
                guard let format = ImageFormat(fileExtension: ext) else { continue }
                let id = variantGroup(asset.name, entry.traits)
                images.append(SourceImage(relativePath: entry.file, asset: id,
                                          scale: entry.traits.densityDPI != nil ? .x1 : entry.traits.scale ?? unsuffixedScale,
                                          declaredFormat: format))
                if !asset.tags.isEmpty { tags[id] = asset.tags }
                if asset.kind == .appIcon || entry.traits.densityDPI != nil { copyOnly.insert(id) }
            }
        }
        return (images.sorted(), tags, copyOnly)
    }

    /// The asset name plus a suffix for every trait that sets this entry apart.
    public static func variantGroup(_ asset: AssetID, _ traits: VariantTraits) -> AssetID {
        var suffix = ""
        if traits.idiom != "universal" { suffix += "~\(traits.idiom)" }
        if let size = traits.size { suffix += "~\(size)" }
        for appearance in traits.appearances where appearance != "light" { suffix += "~\(appearance)" }
        if traits.displayGamut == "display-P3" { suffix += "~P3" }
        if let memory = traits.memoryGB { suffix += "~\(memory)GB" }
        if let family = traits.graphicsFeatureSet { suffix += "~\(family)" }
        if let dpi = traits.densityDPI {
            suffix += "~" + (FolderCatalogReader.densities.first { $0.value == dpi }?.key ?? "\(dpi)dpi")
        }
        return AssetID(asset.name + suffix)
    }
}
