import Foundation
import TesseraCore

/// Turns catalog and folder assets into the per-scale source images the build plans variants from.
///
/// The build makes 1x/2x/3x per *trait set*: entries of one asset that differ in idiom,
/// appearance, gamut, memory, GPU family, layout direction, watch width or Android API level
/// become separate variant groups, named by the asset and a suffix (`icon~ipad`, `icon~dark`,
/// `icon~P3`, `icon~2GB`, `icon~apple5`, `icon~rtl`, `icon~w-gt183`, `icon~v24`), so that none of
/// them is mistaken for a duplicate of another; size classes too (`icon~wcompact`, `icon~hregular`). App icon slots (`~60x60`), Android density
/// entries (`~xhdpi`), single-scale sets and carried formats (PDF, SVG, HEIC) are copied as they
/// are; Tessera does not resize them.
public enum CatalogSources {
    /// What the build plans from a folder's assets.
    public struct SourceSet: Sendable {
        /// Every source image, sorted.
        public var images: [SourceImage] = []
        /// On-demand resource tags by variant group.
        public var tags: [AssetID: [String]] = [:]
        /// Groups that are only copied (app icons made for their slots, Android densities,
        /// single-scale sets and carried formats: never resized).
        public var copyOnly: Set<AssetID> = []
        /// How each group is drawn, for groups whose catalog declares it.
        public var presentation: [AssetID: AssetPresentation] = [:]
        /// Groups whose file is drawn at any scale (a single-scale set): its one variant is
        /// listed at 1x, the scale its pixels are taken at, and marked as any-scale.
        public var anyScale: Set<AssetID> = []
        /// Groups whose entry is explicitly sRGB (`display-gamut: sRGB`, beside a P3 entry): a
        /// vector drawn for them is converted to sRGB.
        public var sRGBOnly: Set<AssetID> = []
        /// Groups for an idiom whose devices draw at 2x at most (iPad, Mac, TV, watch, Vision
        /// Pro): no 3x is planned for them, and none is missed.
        public var scaleCeilings: [AssetID: DisplayScale] = [:]
        /// App icon slot groups made from a single-size icon, and the scales each needs.
        public var slotScales: [AssetID: [DisplayScale]] = [:]
    }

    /// The source images of `assets`. A single-size iOS app icon (one 1024 px file per
    /// appearance) also becomes one group per icon slot (`AppIcon~60x60`, `AppIcon~60x60~dark`)
    /// downscaled from it at the scales devices draw that slot at, as Xcode does when it builds.
    public static func sourceImages(_ assets: [CatalogAsset], unsuffixedScale: DisplayScale) -> SourceSet {
        var set = SourceSet()
        for asset in assets where asset.kind == .image || asset.kind == .appIcon {
            for entry in asset.entries {
                guard let format = entry.format ?? ImageFormat(fileExtension: URL(fileURLWithPath: entry.file).pathExtension)
                else { continue }
                let id = variantGroup(asset.name, entry.traits)
                let inAndroidFolder = AndroidResourceFolder.holds(entry.file)
                set.images.append(SourceImage(relativePath: entry.file, asset: id,
                                              scale: entry.traits.densityDPI != nil ? .x1 : entry.traits.scale ?? unsuffixedScale,
                                              declaredFormat: format,
                                              layoutPath: inAndroidFolder ? entry.file : nil))
                if !asset.tags.isEmpty { set.tags[id] = asset.tags }
                if Self.twoXIdioms.contains(entry.traits.idiom) { set.scaleCeilings[id] = .x2 }
                if entry.traits.displayGamut == .sRGB { set.sRGBOnly.insert(id) }
                let drawn = AssetPresentation(asset, entry: entry)
                if !drawn.isUnspecified { set.presentation[id] = drawn }
                // Android picks a drawable by its folder (a `-nodpi` one at every density, unscaled):
                // Tessera copies those files and never plans other scales of them.
                if asset.kind == .image, asset.isSingleScale, entry.traits.scale == nil, !inAndroidFolder {
                    set.anyScale.insert(id)
                }
                if asset.kind == .appIcon || inAndroidFolder || asset.isSingleScale || !format.isDecodable {
                    set.copyOnly.insert(id)
                }
                let slotSizes = !format.isDecodable ? []
                    : AppIconSlots.isSingleSizeIOSIcon(entry) ? AppIconSlots.iOSSizes
                    : AppIconSlots.isSingleSizeWatchIcon(entry) ? AppIconSlots.watchSizes : []
                if asset.kind == .appIcon {
                    for slot in slotSizes {
                        var traits = entry.traits
                        traits.size = slot.size
                        let group = variantGroup(asset.name, traits)
                        set.images.append(SourceImage(relativePath: entry.file, asset: group, scale: .x1,
                                                      declaredFormat: format, slotPoints: slot.points))
                        set.slotScales[group] = slot.scales.compactMap { DisplayScale(factor: $0) }
                        if !asset.tags.isEmpty { set.tags[group] = asset.tags }
                        if !drawn.isUnspecified { set.presentation[group] = drawn }
                    }
                }
            }
        }
        set.images.sort()
        return set
    }

    /// Idioms whose every current device draws at 2x or less (`docs/devices.md`).
    static let twoXIdioms: Set<String> = ["ipad", "mac", "tv", "watch", "vision"]

    /// The asset name plus a suffix for every trait that sets this entry apart.
    public static func variantGroup(_ asset: AssetID, _ traits: VariantTraits) -> AssetID {
        var suffix = ""
        if traits.idiom != "universal" { suffix += "~\(traits.idiom)" }
        if let size = traits.size { suffix += "~\(size)" }
        // iOS keeps the names it always had; other platforms' icons are groups of their own.
        if let platform = traits.platform, platform != "ios" { suffix += "~\(platform)" }
        if let subtype = traits.subtype { suffix += "~\(subtype)" }
        // Light apart from Any: both ship where a set gives both (docs/catalog-conformance.md).
        for appearance in traits.appearances { suffix += appearance == "high" ? "~high-contrast" : "~\(appearance)" }
        if traits.displayGamut == .displayP3 { suffix += "~P3" }
        if let memory = traits.memoryGB { suffix += "~\(memory)GB" }
        if let family = traits.graphicsFeatureSet { suffix += "~\(family)" }
        switch traits.layoutDirection {
        case .rightToLeft: suffix += "~rtl"
        case .leftToRight: suffix += "~ltr"
        case nil: break
        }
        if let width = traits.widthClass { suffix += "~w\(width.rawValue)" }
        if let height = traits.heightClass { suffix += "~h\(height.rawValue)" }
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
        // `anydpi` apart from `nodpi`: both have no density, and a resource may have both.
        if traits.anyDensity == true { suffix += "~anydpi" }
        for qualifier in traits.runtimeQualifiers { suffix += "~\(qualifier)" }
        if let level = traits.minimumAPILevel { suffix += "~v\(level)" }
        return AssetID(asset.name + suffix)
    }
}
