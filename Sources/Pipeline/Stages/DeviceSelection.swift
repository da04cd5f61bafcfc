import Slicing
import TesseraCore

/// One asset as one device class gets it: the slice report's row and the pack stage's input.
struct SliceRow: Codable, Sendable {
    var asset: String
    var appearance: Appearance
    /// The traits of the catalog entry chosen.
    var traits: VariantTraits
    var action: String
    /// The variant file under the output folder; absent when it failed or was not built.
    var path: String?
    var width: Int?
    var height: Int?
    var bytes: Int?
    var sha256: ContentHash?
    var generated: Bool?
    var tags: [String]
    /// The ready-to-draw bitmap made for the variant, when there is one.
    var readyBitmap: String?
    /// How the app draws it, when the catalog says (`template-rendering-intent`, preserved vectors).
    var presentation: AssetPresentation?
    var reason: String
}

/// What one device class downloads of every asset: the selection rule (`docs/variant-selection.md`)
/// mapped onto the planned files. Made once per build, before anything runs; the slice report
/// adds the built files' measurements, and the pack stage plans its bundles from it.
struct DeviceSelection: Sendable {
    let device: DeviceClass
    let rows: [SliceRow]

    init(device: DeviceClass, assets: [CatalogAsset], outputs: PlannedOutputs) {
        self.device = device
        var rows: [SliceRow] = []
        for asset in assets {
            for decision in VariantSelector.select(asset, for: device) {
                let group = CatalogSources.variantGroup(asset.name, decision.entry.traits).name
                let presentation = AssetPresentation(asset, entry: decision.entry)
                let scale = decision.action == .downscale
                    ? DisplayScale(factor: decision.targetScale ?? 1) : decision.entry.traits.scale ?? .x1
                var resolved = scale.flatMap { outputs.variants[group]?[$0] == nil ? nil : $0 }
                // Android density entries are planned as their group's one (1x) file.
                if resolved == nil, decision.entry.traits.densityDPI != nil { resolved = .x1 }
                let file = resolved.flatMap { outputs.variants[group]?[$0] }
                let bitmap = resolved.flatMap { outputs.bitmaps[group]?[$0] }
                rows.append(SliceRow(asset: asset.name.name, appearance: decision.appearance,
                                     traits: decision.entry.traits, action: decision.action.rawValue, path: file?.path,
                                     tags: asset.tags, readyBitmap: bitmap?.path,
                                     presentation: presentation.isUnspecified ? nil : presentation,
                                     reason: decision.reason))
            }
        }
        self.rows = rows
    }
}
