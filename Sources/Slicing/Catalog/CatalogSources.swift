import Foundation
import TesseraCore

/// Turns catalog and folder assets into the per-scale source images the build plans variants from.
///
/// The build makes 1x/2x/3x per *trait set*: entries of one asset that differ in idiom,
/// appearance, gamut, memory, GPU family, layout direction, watch width or Android API level
/// become separate variant groups, named by the asset and a suffix (`icon~ipad`, `icon~dark`,
/// `icon~P3`, `icon~2GB`, `icon~apple5`, `icon~rtl`, `icon~w-gt183`, `icon~v24`), so that none of
/// them is mistaken for a duplicate of another. App icon slots (`~60x60`), Android density
/// entries (`~xhdpi`), single-scale sets and carried formats (PDF, SVG, HEIC) are copied as they
/// are; Tessera does not resize them.
public enum CatalogSources {
    /// The source images, the tags of each variant group, and the groups that are only copied
    /// (app icons, Android densities, single-scale sets and carried formats: their files are made
    /// for their slots or cannot be decoded, and are never resized).
    /// `presentation` holds the groups whose catalog declares how they are drawn.
    public static func sourceImages(_ assets: [CatalogAsset], unsuffixedScale: DisplayScale)
        -> (images: [SourceImage], tags: [AssetID: [String]], copyOnly: Set<AssetID>,
            presentation: [AssetID: AssetPresentation]) {
        var images: [SourceImage] = []
        var tags: [AssetID: [String]] = [:]
        var copyOnly: Set<AssetID> = []
        var presentation: [AssetID: AssetPresentation] = [:]
        for asset in assets where asset.kind == .image || asset.kind == .appIcon {
            for entry in asset.entries {
                guard let format = entry.format ?? ImageFormat(fileExtension: URL(fileURLWithPath: entry.file).pathExtension)
                else { continue }
                let id = variantGroup(asset.name, entry.traits)
                images.append(SourceImage(relativePath: entry.file, asset: id,
                                          scale: entry.traits.densityDPI != nil ? .x1 : entry.traits.scale ?? unsuffixedScale,
                                          declaredFormat: format))
                if !asset.tags.isEmpty { tags[id] = asset.tags }
                let drawn = AssetPresentation(asset, entry: entry)
                if !drawn.isUnspecified { presentation[id] = drawn }
                if asset.kind == .appIcon || entry.traits.densityDPI != nil || asset.isSingleScale || !format.isDecodable {
                    copyOnly.insert(id)
                }
            }
        }
        return (images.sorted(), tags, copyOnly, presentation)
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
        switch traits.layoutDirection {
        case .rightToLeft: suffix += "~rtl"
        case .leftToRight: suffix += "~ltr"
        case nil: break
        }
        if let width = traits.screenWidth {
            // `<` and `>` are awkward in file names: spelled out.
            let comparison = switch width.comparison {
            case .atMost: "le"
            case .atLeast: "ge"
            case .below: "lt"
            case .above: "gt"
            }
            suffix += "~w-\(comparison)\(width.points)"
        }
        if let dpi = traits.densityDPI {
            suffix += "~" + (AndroidResourceFolder.densities.first { $0.value == dpi }?.key ?? "\(dpi)dpi")
        }
        if let level = traits.minimumAPILevel { suffix += "~v\(level)" }
        return AssetID(asset.name + suffix)
    }
}
