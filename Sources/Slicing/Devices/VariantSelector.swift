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
    }

    public var asset: AssetID
    /// `any` for the default appearance, or the appearance (`dark`).
    public var appearance: String
    public var entry: CatalogEntry
    public var action: Action
    /// The scale the device wants (Apple), for `downscale`.
    public var targetScale: Int?
    public var reason: String
}

/// One deterministic rule picks, for each asset and device class, the variant to ship.
///
/// Apple, in order: (1) idiom — an entry for the device's idiom beats `universal`, other idioms
/// never match; (2) appearance — the default (no appearance, or `light`) is always chosen, and
/// `dark` too on devices that support it; (3) requirements — entries needing more `memory` or a
/// higher `graphics-feature-set` than the device has are dropped, and of the rest the highest
/// requirement met wins (memory first, then GPU family); (4) gamut — `display-P3` entries only
/// on P3 devices, where they beat sRGB ones; (5) scale — the exact scale, else an any-scale
/// entry, else the nearest larger scale (downscaled), else the nearest smaller (used as is,
/// with a warning). Android densities follow bundletool: the closer density wins, and a
/// density above the device's counts twice as good as one below it (scaling down is better).
public enum VariantSelector {
    public static func select(_ asset: CatalogAsset, for device: DeviceClass) -> [SliceDecision] {
        guard asset.kind == .image || asset.kind == .appIcon else { return [] }
        if device.platform == .android, let dpi = device.densityDPI,
           asset.entries.contains(where: { $0.traits.densityDPI != nil }) {
            return selectDensity(asset, dpi: dpi)
        }
        // (1) Idiom.
        var candidates = asset.entries.filter { $0.traits.idiom == device.idiom }
        var idiomReason = "idiom \(device.idiom)"
        if candidates.isEmpty {
            candidates = asset.entries.filter { $0.traits.idiom == "universal" }
            idiomReason = "universal (no \(device.idiom) entry)"
        }
        guard !candidates.isEmpty else { return [] }
        // (2) Appearance.
        var decisions: [SliceDecision] = []
        let defaults = candidates.filter { $0.traits.appearances.isEmpty || $0.traits.appearances == ["light"] }
        if let decision = choose(defaults, asset: asset.name, appearance: "any", device: device, reason: idiomReason) {
            decisions.append(decision)
        }
        if device.supportsDarkMode {
            let dark = candidates.filter { $0.traits.appearances.contains("dark") }
            if let decision = choose(dark, asset: asset.name, appearance: "dark", device: device, reason: idiomReason) {
                decisions.append(decision)
            }
        }
        return decisions
    }

    private static func choose(_ entries: [CatalogEntry], asset: AssetID, appearance: String, device: DeviceClass,
                               reason: String) -> SliceDecision? {
        // (3) Requirements.
        let deviceRank = device.graphicsFamily.flatMap(GraphicsFamily.rank(of:)) ?? 0
        var met = entries.filter {
            ($0.traits.memoryGB ?? 0) <= device.memoryGB
                && ($0.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0) <= deviceRank
        }
        func requirement(_ entry: CatalogEntry) -> (Int, Int) {
            (entry.traits.memoryGB ?? 0, entry.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0)
        }
        if let best = met.map(requirement).max(by: <) { met = met.filter { requirement($0) == best } }
        // (4) Gamut.
        let p3 = device.displayGamut == "display-P3"
        let wide = met.filter { $0.traits.displayGamut == "display-P3" }
        met = p3 && !wide.isEmpty ? wide : met.filter { $0.traits.displayGamut != "display-P3" }
        guard !met.isEmpty else { return nil }
        var why = [reason]
        let (memory, rank) = met.map(requirement).max(by: <) ?? (0, 0)
        if memory > 0 { why.append("memory \(memory)GB ≤ \(device.memoryGB)GB") }
        if rank > 0 { why.append("graphics \(met[0].traits.graphicsFeatureSet ?? "") ≤ \(device.graphicsFamily ?? "")") }
        if p3 && !wide.isEmpty { why.append("display-P3 on a P3 device") }
        // (5) Scale.
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

    /// bundletool's rule: distance to the device density, where densities above count half.
    private static func selectDensity(_ asset: CatalogAsset, dpi: Int) -> [SliceDecision] {
        let entries = asset.entries.filter { $0.traits.densityDPI != nil }
        func score(_ entry: CatalogEntry) -> Int {
            let density = entry.traits.densityDPI!
            return density >= dpi ? density - dpi : 2 * (dpi - density)
        }
        guard let best = entries.min(by: { (score($0), $0.file) < (score($1), $1.file) }) else { return [] }
        let density = best.traits.densityDPI!
        return [SliceDecision(asset: asset.name, appearance: "any", entry: best,
                              action: density >= dpi ? .use : .useSmaller, targetScale: nil,
                              reason: "density \(density) dpi is the closest to \(dpi) dpi (scaling down counts twice as good)")]
    }
}
