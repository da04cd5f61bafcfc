import Delivery
import TesseraCore

/// What one device gets of one asset, and why (`docs/variant-selection.md`).
public struct SliceDecision: Sendable, Hashable, Codable {
    public enum Action: String, Sendable, Codable {
        /// The entry fits the device as it is.
        case use
        /// The entry has a larger scale: the device's scale is generated from it by downscaling.
        case downscale
        /// Only smaller scales exist: the entry is used as is, never upscaled (a warning).
        case useSmaller = "use-smaller"
        /// The entry is a PDF or SVG the build draws: the device's scale is rendered from it.
        case render
    }

    public var asset: AssetID
    public var appearance: Appearance
    public var entry: CatalogEntry
    public var action: Action
    /// The scale the device wants (Apple), for `downscale` and `render`.
    public var targetScale: Int?
    /// For an app icon slot made from a single-size icon: the slot's side in points.
    public var slotPoints: Double? = nil
    public var reason: String
}

/// One deterministic rule picks, for each asset and device class, the variant to ship.
///
/// Apple, in order: (1) idiom — an entry for the device's idiom beats `universal`, other idioms
/// never match; (2) layout direction — entries for the other direction are dropped, and entries
/// for the device's direction beat direction-free ones; (3) screen width — entries whose
/// `screen-width` the device does not meet are dropped, and met ones beat width-free ones;
/// (4) appearance — the default (no appearance, or `light`) is always chosen, `dark` too on
/// devices that support it, `tinted` on devices that show tinted icons; (5) requirements —
/// entries needing more `memory` or a higher `graphics-feature-set` than the device has are
/// dropped, and of the rest the highest requirement met wins (memory first, then GPU family);
/// (6) gamut — `display-P3` entries only on P3 devices, where they beat sRGB ones; (7) scale —
/// the exact scale, else an any-scale entry, else the nearest larger scale (downscaled), else the
/// nearest smaller (used as is, with a warning). Size classes (`width-class`, `height-class`)
/// are not chosen between: each size-class group goes through (4)–(7) on its own and all ship,
/// since the app picks among them at run time. Android: direction and night as above, then
/// bundletool's density rule — the closer density wins, and a density above the device's counts
/// twice as good as one below it (scaling down is better) — then the highest `-vNN` the device runs.
public enum VariantSelector {
    /// The decisions for `asset` on `device`, written `layoutDirection` (left-to-right unless the
    /// device is set to a right-to-left language).
    /// `renders` are the vector formats the build draws at each scale (its `rasterize` stage);
    /// an entry of one of them becomes a `render` at the device's scale instead of a copy.
    public static func select(_ asset: CatalogAsset, for device: DeviceClass,
                              layoutDirection: LayoutDirection = .leftToRight,
                              renders: Set<ImageFormat> = []) -> [SliceDecision] {
        guard asset.kind == .image || asset.kind == .appIcon else { return [] }
        if device.platform == .android, let dpi = device.densityDPI,
           asset.entries.contains(where: { $0.traits.densityDPI != nil }) {
            let entries = direction(asset.entries, layoutDirection).filter {
                ($0.traits.minimumAPILevel ?? 0) <= (device.androidAPILevel ?? Int.max)
            }
            // Qualifiers the device resolves at run time (`land`, `sw600dp`) are not chosen between:
            // each such folder's files are selected on their own and all ship, as in Play's splits.
            var decisions: [SliceDecision] = []
            let byQualifiers = Dictionary(grouping: entries) { $0.traits.runtimeQualifiers }
            for qualifiers in byQualifiers.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let group = byQualifiers[qualifiers]!
                if let decision = selectDensity(group.filter { $0.traits.appearances.isEmpty }, asset: asset.name,
                                                appearance: .any, dpi: dpi) {
                    decisions.append(decision)
                }
                if device.supportsDarkMode,
                   let decision = selectDensity(group.filter { $0.traits.appearances == [Appearance.dark.rawValue] },
                                                asset: asset.name, appearance: .dark, dpi: dpi) {
                    decisions.append(decision)
                }
            }
            return decisions
        }
        // (0) Platform and watch case: an entry naming a `platform` (single-size app icons) is only
        // for that platform's devices; one naming a watch case size (`subtype: 41mm`) only for
        // watches of that case.
        let usable = DevicePlatformMatch.caseSized(asset.entries.filter {
            DevicePlatformMatch.matches(platform: $0.traits.platform, device: device)
        }, device: device)
        // (1) Idiom.
        var candidates = usable.filter { $0.traits.idiom == device.idiom }
        var why = ["idiom \(device.idiom)"]
        if candidates.isEmpty {
            candidates = usable.filter { $0.traits.idiom == "universal" }
            // Android picks no idiom: a file with no density (`-nodpi`, `-anydpi`) fits every device.
            why = device.platform == .android ? ["density-independent (no density qualifier)"]
                : ["universal (no \(device.idiom) entry)"]
        }
        // CarPlay screens are drawn by the iPhone app: an iPhone ships the `car` entries too.
        let carPlay = device.idiom == "iphone" ? usable.filter { $0.traits.idiom == "car" } : []
        if !carPlay.isEmpty, asset.kind == .image {
            let forCar = appearanceDecisions(direction(carPlay, layoutDirection), asset: asset.name, device: device,
                                             reason: ["idiom car (CarPlay, drawn by the iPhone app)"])
            var withoutCar = asset
            withoutCar.entries.removeAll { $0.traits.idiom == "car" }
            let rest = Self.select(withoutCar, for: device, layoutDirection: layoutDirection, renders: renders)
            return rest + (renders.isEmpty ? forCar : forCar.map { rendering($0, renders: renders, device: device) })
        }
        // (2) Layout direction.
        let directed = direction(candidates, layoutDirection)
        if directed.contains(where: { $0.traits.layoutDirection != nil }) { why.append(layoutDirection.rawValue) }
        candidates = directed
        // (3) Screen width.
        let width = device.screenWidthPoints
        candidates = candidates.filter { entry in
            entry.traits.screenWidth.map { condition in width.map(condition.isMet(byWidth:)) ?? false } ?? true
        }
        if let met = candidates.first(where: { $0.traits.screenWidth != nil })?.traits.screenWidth {
            candidates = candidates.filter { $0.traits.screenWidth != nil }
            why.append("screen width \(width ?? 0) pt \(met)")
        }
        guard !candidates.isEmpty else { return [] }
        if asset.kind == .appIcon { return appIconDecisions(candidates, asset: asset.name, device: device, reason: why) }
        // Size classes change at run time (rotation, split view): every size-class group of the
        // device's idiom ships, each chosen on its own, as app thinning keeps them all.
        let bySizeClass = Dictionary(grouping: candidates) {
            "\($0.traits.widthClass?.rawValue ?? "any") width, \($0.traits.heightClass?.rawValue ?? "any") height"
        }
        var decisions: [SliceDecision] = []
        for sizeClass in bySizeClass.keys.sorted() {
            let said = sizeClass == "any width, any height" ? why : why + ["size class \(sizeClass)"]
            decisions += appearanceDecisions(bySizeClass[sizeClass]!, asset: asset.name, device: device, reason: said)
        }
        return renders.isEmpty ? decisions : decisions.map { rendering($0, renders: renders, device: device) }
    }

    /// A decision for a vector entry the build draws, made a render at the device's scale (Xcode
    /// rasterises a PDF or SVG set at the scale each device draws it at).
    private static func rendering(_ decision: SliceDecision, renders: Set<ImageFormat>,
                                  device: DeviceClass) -> SliceDecision {
        let entry = decision.entry
        guard let format = entry.format ?? ImageFormat(fileExtension: String(entry.file.split(separator: ".").last ?? "")),
              renders.contains(format) else { return decision }
        var made = decision
        made.action = .render
        made.targetScale = device.scale
        let drawn = "\(format.displayName) drawn at \(device.scale)x"
        // A larger or smaller slot's vector is drawn at the device's scale: neither downscaled
        // nor used smaller, so the scale clause says what happens instead.
        if decision.action == .use {
            made.reason += "; " + drawn
        } else if let slot = entry.traits.scale, let clause = decision.reason.range(of: "; \(device.scale)x made from \(slot)")
                    ?? decision.reason.range(of: "; only \(slot) exists; not upscaled") {
            made.reason.replaceSubrange(clause, with: "; the \(slot) \(drawn)")
        } else {
            made.reason += "; " + drawn
        }
        return made
    }

    /// (4) Appearance: the default is always chosen, `dark` and `tinted` where the device shows them.
    private static func appearanceDecisions(_ candidates: [CatalogEntry], asset: AssetID, device: DeviceClass,
                                            reason why: [String]) -> [SliceDecision] {
        var decisions: [SliceDecision] = []
        let defaults = candidates.filter { $0.traits.appearances.isEmpty || $0.traits.appearances == ["light"] }
        if let decision = choose(defaults, asset: asset, appearance: .any, device: device, reason: why) {
            decisions.append(decision)
        }
        var appearances: [Appearance] = []
        if device.supportsDarkMode { appearances.append(.dark) }
        if device.supportsTintedIcons == true { appearances.append(.tinted) }
        for appearance in appearances {
            let matching = candidates.filter { $0.traits.appearances == [appearance.rawValue] }
            if let decision = choose(matching, asset: asset, appearance: appearance, device: device, reason: why) {
                decisions.append(decision)
            }
        }
        return decisions
    }

    /// App icons: every slot the device draws, each chosen like an image among the entries of that
    /// size. A single-size iOS icon stands for every slot: each becomes a downscale to the slot.
    private static func appIconDecisions(_ candidates: [CatalogEntry], asset: AssetID, device: DeviceClass,
                                         reason why: [String]) -> [SliceDecision] {
        let slots = AppIconSlots.slots(for: device)
        let isSingle = { (entry: CatalogEntry) in AppIconSlots.isSingleSizeIcon(entry, for: device) }
        if !slots.isEmpty, candidates.contains(where: isSingle) {
            let single = candidates.filter(isSingle)
            return slots.flatMap { slot in
                appearanceDecisions(single, asset: asset, device: device, reason: why).map { decision in
                    var made = decision
                    made.entry.traits.size = slot.size
                    made.action = .downscale
                    made.targetScale = device.scale
                    made.slotPoints = slot.points
                    made.reason = (why + ["\(slot.size) slot at \(device.scale)x (\(slot.pixels(atScale: device.scale)) px) made from the single-size icon"])
                        .joined(separator: "; ")
                    return made
                }
            }
        }
        let sizes = Set(candidates.compactMap(\.traits.size)).sorted { slotPoints($0) < slotPoints($1) }
        guard !sizes.isEmpty else { return appearanceDecisions(candidates, asset: asset, device: device, reason: why) }
        return sizes.flatMap { size in
            appearanceDecisions(candidates.filter { $0.traits.size == size }, asset: asset, device: device,
                                reason: why + ["\(size) slot"])
        }
    }

    /// The points of an icon size string (`83.5x83.5` → 83.5), for ordering slots.
    private static func slotPoints(_ size: String) -> Double {
        Double(size.split(separator: "x").first ?? "") ?? 0
    }

    /// Entries for the other direction are dropped; entries for this one beat direction-free ones.
    private static func direction(_ entries: [CatalogEntry], _ direction: LayoutDirection) -> [CatalogEntry] {
        let usable = entries.filter { $0.traits.layoutDirection == nil || $0.traits.layoutDirection == direction }
        let explicit = usable.filter { $0.traits.layoutDirection == direction }
        return explicit.isEmpty ? usable : explicit
    }

    private static func choose(_ entries: [CatalogEntry], asset: AssetID, appearance: Appearance, device: DeviceClass,
                               reason: [String]) -> SliceDecision? {
        // (5) Requirements.
        let deviceRank = device.graphicsFamily.flatMap(GraphicsFamily.rank(of:)) ?? 0
        var met = entries.filter {
            ($0.traits.memoryGB ?? 0) <= device.memoryGB
                && ($0.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0) <= deviceRank
        }
        func requirement(_ entry: CatalogEntry) -> (Int, Int) {
            (entry.traits.memoryGB ?? 0, entry.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0)
        }
        if let best = met.map(requirement).max(by: <) { met = met.filter { requirement($0) == best } }
        // (6) Gamut.
        let p3 = device.displayGamut == .displayP3
        let wide = met.filter { $0.traits.displayGamut == .displayP3 }
        met = p3 && !wide.isEmpty ? wide : met.filter { $0.traits.displayGamut != .displayP3 }
        guard !met.isEmpty else { return nil }
        var why = reason
        let (memory, rank) = met.map(requirement).max(by: <) ?? (0, 0)
        if memory > 0 { why.append("memory \(memory)GB ≤ \(device.memoryGB)GB") }
        if rank > 0 { why.append("graphics \(met[0].traits.graphicsFeatureSet ?? "") ≤ \(device.graphicsFamily ?? "")") }
        if p3 && !wide.isEmpty { why.append("display-P3 on a P3 device") }
        // (7) Scale.
        let sorted = met.sorted { ($0.traits.scale?.factor ?? 0, $0.file) < ($1.traits.scale?.factor ?? 0, $1.file) }
        if let exact = sorted.first(where: { $0.traits.scale?.factor == device.scale }) {
            return SliceDecision(asset: asset, appearance: appearance, entry: exact, action: .use, targetScale: nil,
                                 reason: (why + ["scale \(device.scale)x exact"]).joined(separator: "; "))
        }
        if let any = sorted.first(where: { $0.traits.scale == nil }) {
            return SliceDecision(asset: asset, appearance: appearance, entry: any, action: .use, targetScale: nil,
                                 reason: (why + ["single-scale entry"]).joined(separator: "; "))
        }
        if let larger = sorted.first(where: { ($0.traits.scale?.factor ?? 0) > device.scale }) {
            return SliceDecision(asset: asset, appearance: appearance, entry: larger, action: .downscale,
                                 targetScale: device.scale,
                                 reason: (why + ["\(device.scale)x made from \(larger.traits.scale!)"]).joined(separator: "; "))
        }
        let smaller = sorted.last!
        return SliceDecision(asset: asset, appearance: appearance, entry: smaller, action: .useSmaller, targetScale: nil,
                             reason: (why + ["only \(smaller.traits.scale!) exists; not upscaled"]).joined(separator: "; "))
    }

    /// bundletool's rule: distance to the device density, where densities above count half; of
    /// entries at the chosen density, the highest `-vNN` wins.
    private static func selectDensity(_ entries: [CatalogEntry], asset: AssetID, appearance: Appearance,
                                      dpi: Int) -> SliceDecision? {
        let entries = entries.filter { $0.traits.densityDPI != nil }
        func score(_ entry: CatalogEntry) -> Int {
            let density = entry.traits.densityDPI!
            return density >= dpi ? density - dpi : 2 * (dpi - density)
        }
        guard let best = entries.min(by: {
            (score($0), -($0.traits.minimumAPILevel ?? 0), $0.file) < (score($1), -($1.traits.minimumAPILevel ?? 0), $1.file)
        }) else { return nil }
        let density = best.traits.densityDPI!
        var reason = density == dpi ? "density \(density) dpi matches the device"
            : density > dpi ? "density \(density) dpi is the closest to \(dpi) dpi (a higher density counts twice as close: scaling down loses less)"
            : "density \(density) dpi is the closest to \(dpi) dpi; no higher density is near enough"
        if let level = best.traits.minimumAPILevel { reason += "; API level \(level)" }
        return SliceDecision(asset: asset, appearance: appearance, entry: best,
                             action: density >= dpi ? .use : .useSmaller, targetScale: nil, reason: reason)
    }
}
