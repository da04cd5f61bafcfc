import Delivery
import Slicing
import TesseraCore

/// What one device class downloads of every asset: the selection rule (`docs/variant-selection.md`)
/// mapped onto the planned files. Made once per build, before anything runs; the slice report
/// adds the built files' measurements, and the pack stage plans its bundles from it.
struct DeviceSelection: Sendable {
    let device: DeviceClass
    let rows: [SliceRow]
    /// The carried catalog items (colour, data, symbol sets) of the assets this device ships.
    let data: [PlannedData]
    /// Those of the items that stay in the app: compiled into it, never packed.
    let appData: [PlannedData]
    /// App icon slots the device draws that have no file and none planned from the single-size
    /// icon (a vector 1024, or no downscale stage): no row stands for them, and the planner warns.
    let unmadeSlots: [UnmadeSlot]

    /// An app icon slot a device draws that nothing fills.
    struct UnmadeSlot: Hashable, Comparable {
        /// The single-size icon the slot would be made from, relative to the input folder.
        let file: String
        let asset: String
        let slot: String
        let scale: Int

        static func < (lhs: UnmadeSlot, rhs: UnmadeSlot) -> Bool {
            (lhs.file, lhs.asset, lhs.slot, lhs.scale) < (rhs.file, rhs.asset, rhs.slot, rhs.scale)
        }
    }

    /// One selection per device. Images whose entries have the same traits (and files in the same
    /// order) get the same decisions, so each device decides once per such shape and the rest
    /// take its answer: a thousand one-file images are one decision, not a thousand.
    /// `renders`: the vector formats the build draws at each scale (`VariantSelector`).
    /// `membership`: which assets each device ships (a pipeline's targets) and under which
    /// device family and deployment target; `keeping`: which assets stay in the app (their rows say why, and no pack
    /// holds them).
    static func make(devices: [DeviceClass], assets: [CatalogAsset], outputs: PlannedOutputs,
                     renders: Set<ImageFormat> = [], membership: TargetMembership? = nil,
                     app: AppBuildSettings = AppBuildSettings(), keeping: AppKeeping? = nil,
                     rowsOnly: Bool = false) -> [DeviceSelection] {
        let shapes = SelectionShape.ids(of: assets)
        return devices.map { device in
            // A device older than the deployment target cannot install the app: it gets nothing of it.
            let shipped = assets.indices.filter { index in
                let settings = membership?.settings(for: assets[index], default: app) ?? app
                return (membership?.device(device.id, ships: assets[index]) ?? true)
                    && (settings.deploymentTarget?.admits(device) ?? true)
            }
            let families = shipped.map { membership?.deviceFamily(for: assets[$0], default: app) ?? app.deviceFamily }
            return DeviceSelection(device: device, assets: shipped.map { assets[$0] }, outputs: outputs,
                                   renders: renders, shapes: shipped.map { shapes[$0] }, families: families,
                                   keeping: keeping, rowsOnly: rowsOnly)
        }
    }

    init(device: DeviceClass, assets: [CatalogAsset], outputs: PlannedOutputs, renders: Set<ImageFormat> = []) {
        self.init(device: device, assets: assets, outputs: outputs, renders: renders, shapes: nil, families: nil,
                  keeping: nil)
    }

    /// `rowsOnly`: the rows alone, no carried items (`SelectionRecipe.rows(for:assets:)`, made a
    /// part of the assets at a time, would go through every carried item for each part).
    private init(device: DeviceClass, assets: [CatalogAsset], outputs: PlannedOutputs, renders: Set<ImageFormat>,
                 shapes: [Int?]?, families: [Set<String>?]?, keeping: AppKeeping?, rowsOnly: Bool = false) {
        self.device = device
        // By kind and name: an Android XML drawable and the bitmaps of the same name are two assets,
        // the XML always kept in the app, the bitmaps packed when tagged (issue 53, item 9).
        func key(_ kind: String, _ name: AssetID) -> String { "\(kind)\u{0}\(name.name)" }
        if rowsOnly {
            data = []
            appData = []
        } else {
            let packed = Set(assets.filter { keeping?.reason(for: $0) == nil }.map { key($0.kind.rawValue, $0.name) })
            let kept = Set(assets.filter { keeping?.reason(for: $0) != nil }.map { key($0.kind.rawValue, $0.name) })
            data = outputs.data.filter { packed.contains(key($0.kind, $0.name)) }
            appData = outputs.data.filter { kept.contains(key($0.kind, $0.name)) }
        }
        var rows: [SliceRow] = [], unmade: [UnmadeSlot] = []
        var decided: [ShapeOnDevice: (asset: Int, decisions: [SliceDecision])] = [:]
        for (index, asset) in assets.enumerated() {
            var decisions: [SliceDecision]?
            let running = DeviceFamilyRule.device(device, runningAppOf: families?[index] ?? nil)
            let shape = shapes?[index].map { ShapeOnDevice(shape: $0, idiom: running.idiom) }
            if let shape, let made = decided[shape] {
                decisions = SelectionShape.transplant(made.decisions, from: assets[made.asset], to: asset)
            }
            if decisions == nil {
                decisions = VariantSelector.select(asset, for: running, renders: renders)
                if let shape { decided[shape] = (index, decisions!) }
            }
            let inApp = keeping?.reason(for: asset)
            for decision in decisions! {
                let group = CatalogSources.variantGroup(asset.name, decision.entry.traits).name
                let scale = decision.action == .downscale || decision.action == .render
                    ? DisplayScale(factor: decision.targetScale ?? 1) : decision.entry.traits.scale ?? .x1
                var resolved = scale.flatMap { outputs.variants[group]?[$0] == nil ? nil : $0 }
                // Android density entries are planned as their group's one (1x) file.
                if resolved == nil, decision.entry.traits.densityDPI != nil { resolved = .x1 }
                let file = resolved.flatMap { outputs.variants[group]?[$0] }
                // A slot made from the single-size icon that the plan cannot make: a row would name
                // no file yet count in the size report; the planner warns instead.
                if file == nil, decision.slotPoints != nil, let size = decision.entry.traits.size {
                    unmade.append(UnmadeSlot(file: decision.entry.file, asset: asset.name.name, slot: size,
                                             scale: decision.targetScale ?? device.scale))
                    continue
                }
                let bitmap = resolved.flatMap { outputs.bitmaps[group]?[$0] }
                var row = SliceRow(asset, decision)
                row.inApp = inApp
                if running.idiom != device.idiom {
                    row.reason = "\(device.idiom) runs the app's \(running.idiom) variant (device-family): " + row.reason
                }
                row.path = file?.path
                row.readyBitmap = bitmap?.path
                // A file made at the device's scale (downscaled or drawn) says that scale in its
                // records, not its master's.
                if decision.action == .render || decision.action == .downscale, decision.entry.traits.densityDPI == nil {
                    row.traits.scale = resolved ?? row.traits.scale
                }
                if decision.action == .render { row.vector = outputs.vectors[group]?.path }
                rows.append(row)
            }
        }
        self.rows = rows
        unmadeSlots = unmade
    }
}

/// What `DeviceSelection.make` reads: the slice job keeps this, not the rows it makes, and makes
/// each device's selection again when it runs (issue 54, item 14).
struct SelectionRecipe: Sendable {
    let assets: [CatalogAsset]
    let outputs: PlannedOutputs
    let renders: Set<ImageFormat>
    let membership: TargetMembership?
    let app: AppBuildSettings
    let keeping: AppKeeping?

    /// `outputs` kept without their index by path, which no selection reads: the slice job holds
    /// the recipe to the end of the build, and the index was about 20 MB of it at 100,000 tiny
    /// masters (issue 54, item 14).
    init(assets: [CatalogAsset], outputs: PlannedOutputs, renders: Set<ImageFormat>, membership: TargetMembership?,
         app: AppBuildSettings, keeping: AppKeeping?) {
        self.assets = assets
        self.outputs = outputs.withoutPathIndex()
        self.renders = renders
        self.membership = membership
        self.app = app
        self.keeping = keeping
    }

    /// Every device's selection, in `devices`' order.
    func make(for devices: [DeviceClass]) -> [DeviceSelection] {
        DeviceSelection.make(devices: devices, assets: assets, outputs: outputs, renders: renders,
                             membership: membership, app: app, keeping: keeping)
    }

    /// `device`'s selection: the same as its part of `make(for:)` with other devices.
    func make(for device: DeviceClass) -> DeviceSelection {
        make(for: [device])[0]
    }

    /// The rows `device`'s selection makes of the assets at `range`: that part of
    /// `make(for: device).rows`, in the same order, since each asset's rows are decided on their
    /// own (assets of one shape share decisions, whichever is decided first). What the slice job
    /// writes a part at a time, so that a device's rows are never whole (issue 54, item 14).
    func rows(for device: DeviceClass, assets range: Range<Int>) -> [SliceRow] {
        DeviceSelection.make(devices: [device], assets: Array(assets[range]), outputs: outputs, renders: renders,
                             membership: membership, app: app, keeping: keeping, rowsOnly: true)[0].rows
    }
}

/// A selection shape decided for one idiom: a device running another family's app (an iPad running
/// an iPhone-only app) decides apart.
private struct ShapeOnDevice: Hashable {
    let shape: Int
    let idiom: String
}

/// What `VariantSelector` reads of an image asset: each entry's traits, format, rendering
/// intent and Android resource type, its XML drawables' traits, and the order of its files (ties between entries go to the first file). Two images of
/// one shape get the same decisions, entry for entry; only the asset and its files differ.
private struct SelectionShape: Hashable {
    struct Entry: Hashable {
        let traits: VariantTraits
        let format: ImageFormat?
        let templateRenderingIntent: String?
        /// The file's place among the asset's files (equal files, equal places).
        let fileRank: Int
        /// Android: whether the file is a launcher icon (`mipmap-*`), which ships at every
        /// density where a `drawable-*` of the same densities is thinned to the device's: a
        /// drawable once took a launcher icon's decisions.
        let isLauncherIcon: Bool
    }

    let entries: [Entry]
    /// The resource's XML drawables (Android), which take part in the choice.
    let xmlDrawables: [VariantTraits]

    /// A shape number per asset; nil for assets decided on their own (app icons, whose decisions
    /// rewrite entries, and everything that is not an image).
    static func ids(of assets: [CatalogAsset]) -> [Int?] {
        var numbers: [SelectionShape: Int] = [:]
        return assets.map { asset in
            guard asset.kind == .image else { return nil }
            let files = Array(Set(asset.entries.map(\.file))).sorted()
            let shape = SelectionShape(entries: asset.entries.map { entry in
                Entry(traits: entry.traits, format: entry.format, templateRenderingIntent: entry.templateRenderingIntent,
                      fileRank: files.count == 1 ? 0 : files.firstIndex(of: entry.file)!,
                      isLauncherIcon: AndroidResourceFolder.isLauncherIcon(entry.file))
            }, xmlDrawables: asset.xmlDrawables.map(\.traits))
            if let known = numbers[shape] { return known }
            numbers[shape] = numbers.count
            return numbers.count - 1
        }
    }

    /// `decisions` made for `template`, made about `asset` (of the same shape); nil if a decided
    /// entry is not one of the template's.
    static func transplant(_ decisions: [SliceDecision], from template: CatalogAsset,
                           to asset: CatalogAsset) -> [SliceDecision]? {
        var moved: [SliceDecision] = []
        for decision in decisions {
            guard let index = template.entries.firstIndex(of: decision.entry) else { return nil }
            var made = decision
            made.asset = asset.name
            made.entry = asset.entries[index]
            moved.append(made)
        }
        return moved
    }
}
