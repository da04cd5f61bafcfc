import Foundation
import TesseraCore

/// Turns catalog and folder assets into the per-scale source images the build plans variants from.
///
/// The build makes 1x/2x/3x per *trait set*: entries of one asset that differ in idiom,
/// appearance, gamut, memory or GPU family become separate variant groups, named by the asset and
/// a suffix (`icon~ipad`, `icon~dark`, `icon~P3`, `icon~2GB`, `icon~apple5`), so that none of them
/// is mistaken for a duplicate of another. Android density entries (`~xhdpi`) are copied as they
/// are; Tessera does not generate Android densities.
public enum CatalogSources {
    public static func sourceImages(_ assets: [CatalogAsset], unsuffixedScale: DisplayScale)
        -> (images: [SourceImage], tags: [AssetID: [String]]) {
        var images: [SourceImage] = []
        var tags: [AssetID: [String]] = [:]
        for asset in assets where asset.kind == .image || asset.kind == .appIcon {
            for entry in asset.entries {
                let ext = URL(fileURLWithPath: entry.file).pathExtension
                guard let format = ImageFormat(fileExtension: ext) else { continue }
                let id = variantGroup(asset.name, entry.traits)
                images.append(SourceImage(relativePath: entry.file, asset: id,
                                          scale: entry.traits.densityDPI != nil ? .x1 : entry.traits.scale ?? unsuffixedScale,
                                          declaredFormat: format))
                if !asset.tags.isEmpty { tags[id] = asset.tags }
            }
        }
        return (images.sorted(), tags)
    }

    /// The asset name plus a suffix for every trait that sets this entry apart.
    public static func variantGroup(_ asset: AssetID, _ traits: VariantTraits) -> AssetID {
        var suffix = ""
        if traits.idiom != "universal" { suffix += "~\(traits.idiom)" }
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
