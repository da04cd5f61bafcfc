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

/// One deterministic rule picks, for each asset and device class, the variants to ship.
///
/// A trait is either *thinned* (each device gets the entry for its own value: idiom, scale,
/// memory, GPU family, gamut, watch case and width, Android density and API level) or *kept for
/// run time* (the OS picks among the entries as the user or the window changes: appearance and
/// contrast, layout direction, size classes, Android run-time qualifiers), in which case every
/// group of it ships and is thinned on its own (`docs/catalog-conformance.md`).
///
/// Apple, in order: (0) platform and watch case; (1) idiom — an entry for the device's idiom
/// beats `universal`, other idioms never match; (2) screen width — entries whose `screen-width`
/// the device does not meet are dropped, and met ones beat width-free ones; then, for each
/// run-time group (layout direction: none, left-to-right, right-to-left; width and height class)
/// on its own: (3) appearance — every appearance the device's OS can show ships (`any` always;
/// `light`, `dark` and the high-contrast ones from iOS 13; for app icons `dark` and `tinted` from
/// iOS 18); where a set has no `any` entry its `light` one is the default; (4) requirements —
/// entries needing more `memory` or a higher `graphics-feature-set` than the device has are
/// dropped, and of the rest the highest requirement met wins (memory first, then GPU family);
/// (5) gamut — `display-P3` entries only on P3 devices, where they beat sRGB ones; (6) scale —
/// the exact scale, else an any-scale entry, else the nearest larger scale (downscaled), else the
/// nearest smaller (used as is, with a warning). A Mac also gets each smaller scale's own entry
/// (the App Store does not thin Mac apps, and a Mac drives 1x displays). Android: layout
/// direction, night and other run-time qualifiers as groups, then Android's density rule
/// (`AndroidDensityRule`: AOSP's `isBetterThan`, which bundletool builds its splits by; `anydpi`
/// first, the resource's XML drawables competing too; a bucket gets every density of its Play
/// split, `AndroidDensitySplit`) — then the highest `-vNN` the device runs; launcher icons
/// (`mipmap-*`) are not thinned: every density ships, as bundletool keeps them in the master split.
public enum VariantSelector {
    /// The decisions for `asset` on `device`.
    /// `renders` are the vector formats the build draws at each scale (its `rasterize` stage);
    /// an entry of one of them becomes a `render` at the device's scale instead of a copy.
    public static func select(_ asset: CatalogAsset, for device: DeviceClass,
                              renders: Set<ImageFormat> = []) -> [SliceDecision] {
        guard asset.kind == .image || asset.kind == .appIcon else { return [] }
        if device.platform == .android, let dpi = device.densityDPI,
           asset.entries.contains(where: { $0.traits.densityDPI != nil }) {
            return androidDecisions(asset, device: device, dpi: dpi)
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
            let forCar = runtimeGroupDecisions(carPlay, asset: asset, device: device,
                                               reason: ["idiom car (CarPlay, drawn by the iPhone app)"])
            var withoutCar = asset
            withoutCar.entries.removeAll { $0.traits.idiom == "car" }
            let rest = Self.select(withoutCar, for: device, renders: renders)
            return rest + (renders.isEmpty ? forCar : forCar.map { rendering($0, renders: renders, device: device) })
        }
        // (2) Screen width.
        let width = device.screenWidthPoints
        candidates = candidates.filter { entry in
            entry.traits.screenWidth.map { condition in width.map(condition.isMet(byWidth:)) ?? false } ?? true
        }
        if let width, candidates.contains(where: { $0.traits.screenWidth != nil }) {
            // Of the conditions met, the tightest (its bound nearest the device's width) wins, as
            // `>183` beats `>161` on a 198 pt watch; the reason names the bound of the entry
            // finally chosen (`chooseAtDeviceScale`).
            let tightest = candidates.compactMap { $0.traits.screenWidth.map { abs(width - $0.points) } }.min()
            candidates = candidates.filter { $0.traits.screenWidth.map { abs(width - $0.points) } == tightest }
        }
        guard !candidates.isEmpty else { return [] }
        if asset.kind == .appIcon { return appIconDecisions(candidates, asset: asset.name, device: device, reason: why) }
        let decisions = runtimeGroupDecisions(candidates, asset: asset, device: device, reason: why)
        return renders.isEmpty ? decisions : decisions.map { rendering($0, renders: renders, device: device) }
    }

    /// Layout direction and size classes change at run time (a right-to-left language, rotation,
    /// split view): every group of the device's idiom ships, each chosen on its own, as app
    /// thinning keeps them all and UIKit picks one.
    private static func runtimeGroupDecisions(_ candidates: [CatalogEntry], asset: CatalogAsset, device: DeviceClass,
                                              reason why: [String]) -> [SliceDecision] {
        let groups = Dictionary(grouping: candidates, by: RuntimeGroup.init)
        var decisions: [SliceDecision] = []
        for group in groups.keys.sorted() {
            decisions += appearanceDecisions(groups[group]!, asset: asset.name, device: device,
                                             reason: why + group.reasons)
        }
        return decisions
    }

    /// Android: run-time qualifiers (layout direction, `land`, `sw600dp`, a locale) are groups the
    /// device picks among, so each group's files are selected on their own and all ship, as in
    /// Play's splits. Launcher icons (`mipmap-*`) ship at every density. The resource's XML
    /// drawables (`CatalogAsset.xmlDrawables`) compete in their own group, as Android chooses
    /// among all of a resource's configurations.
    private static func androidDecisions(_ asset: CatalogAsset, device: DeviceClass, dpi: Int) -> [SliceDecision] {
        let entries = asset.entries.filter { runs(device, $0) }
        let xml = asset.xmlDrawables.filter { runs(device, $0) }
        var decisions: [SliceDecision] = []
        func qualifiers(_ entry: CatalogEntry) -> [String] {
            entry.traits.runtimeQualifiers + (entry.traits.layoutDirection.map { [$0 == .rightToLeft ? "ldrtl" : "ldltr"] } ?? [])
        }
        let byQualifiers = Dictionary(grouping: entries, by: qualifiers)
        let xmlByQualifiers = Dictionary(grouping: xml, by: qualifiers)
        for group in byQualifiers.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let bitmaps = byQualifiers[group]!, drawables = xmlByQualifiers[group] ?? []
            var appearances: [Appearance] = [.any]
            if device.supportsDarkMode { appearances.append(.dark) }
            for appearance in appearances {
                let isShown = { (entry: CatalogEntry) in
                    appearance == .any ? entry.traits.appearances.isEmpty : entry.traits.appearances == ["dark"]
                }
                let entries = bitmaps.filter(isShown)
                if entries.allSatisfy({ AndroidResourceFolder.isLauncherIcon($0.file) }), !entries.isEmpty {
                    decisions += launcherIconDecisions(entries, asset: asset.name, appearance: appearance, dpi: dpi)
                } else {
                    decisions += selectDensity(entries, xmlDrawables: drawables.filter(isShown), asset: asset.name,
                                               appearance: appearance, device: device, dpi: dpi)
                }
            }
        }
        return decisions
    }

    /// The API level an Android entry is for: its `-vNN`, raised to Lollipop for `anydpi` as aapt2
    /// compiles it (`AndroidDensityRule.anyDensityAPILevel`); 0 for none.
    private static func apiLevel(_ entry: CatalogEntry) -> Int {
        max(entry.traits.minimumAPILevel ?? 0, entry.traits.anyDensity == true ? AndroidDensityRule.anyDensityAPILevel : 0)
    }

    /// Whether `device` runs the API level `entry` is for (a device with none runs a current Android).
    private static func runs(_ device: DeviceClass, _ entry: CatalogEntry) -> Bool {
        apiLevel(entry) <= (device.androidAPILevel ?? Int.max)
    }

    /// bundletool keeps launcher icons (`mipmap-*`) out of the density splits: a launcher asks for
    /// other densities than the screen's, so every density ships to every device.
    private static func launcherIconDecisions(_ entries: [CatalogEntry], asset: AssetID, appearance: Appearance,
                                              dpi: Int) -> [SliceDecision] {
        entries.filter { $0.traits.densityDPI != nil }
            .sorted { ($0.traits.densityDPI!, $0.traits.minimumAPILevel ?? 0, $0.file)
                < ($1.traits.densityDPI!, $1.traits.minimumAPILevel ?? 0, $1.file) }
            .map { entry in
                SliceDecision(asset: asset, appearance: appearance, entry: entry, action: .use, targetScale: nil,
                              reason: "launcher icon (mipmap): every density ships, as bundletool keeps mipmaps in the master split; "
                                  + "\(entry.traits.densityDPI!) dpi")
            }
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

    /// (3) Appearance: every appearance the device's OS can show ships, each chosen on its own;
    /// the default is `any`, or `light` where a set has no `any` entry.
    private static func appearanceDecisions(_ candidates: [CatalogEntry], asset: AssetID, device: DeviceClass,
                                            isIcon: Bool = false, reason why: [String]) -> [SliceDecision] {
        let groups = Dictionary(grouping: candidates) { Appearance(entryValues: $0.traits.appearances) }
        let fallback: Appearance = groups[.any] == nil ? .light : .any
        var decisions: [SliceDecision] = []
        for appearance in groups.keys.compactMap({ $0 }).sorted()
        where appearance == fallback || RuntimeGroup.shows(appearance, on: device, isIcon: isIcon) {
            let named: Appearance = appearance == fallback ? .any : appearance
            var said = why
            if appearance == .light && fallback == .light { said.append("light (the set has no Any entry)") }
            if let decision = choose(groups[appearance]!, asset: asset, appearance: named, device: device, reason: said) {
                decisions += decision
            }
        }
        return decisions
    }

    /// App icons: every slot the device draws, each chosen like an image among the entries of that
    /// size. A single-size iOS icon stands for every slot: each becomes a downscale to the slot.
    /// A set with the single-size icon *and* files for some slots (Xcode's "All Sizes" layout
    /// with the 1024 filled): a slot's own file at the device's scale is used as it is, and only
    /// the slots without one are made from the 1024, as Xcode uses what the set provides.
    private static func appIconDecisions(_ candidates: [CatalogEntry], asset: AssetID, device: DeviceClass,
                                         reason why: [String]) -> [SliceDecision] {
        let slots = AppIconSlots.slots(for: device)
        let isSingle = { (entry: CatalogEntry) in AppIconSlots.isSingleSizeIcon(entry, for: device) }
        if !slots.isEmpty, candidates.contains(where: isSingle) {
            let single = candidates.filter(isSingle)
            return slots.flatMap { slot in
                let made = appearanceDecisions(single, asset: asset, device: device, isIcon: true, reason: why).map { decision in
                    var made = decision
                    made.entry.traits.size = slot.size
                    made.action = .downscale
                    made.targetScale = device.scale
                    made.slotPoints = slot.points
                    made.reason = (why + ["\(slot.size) slot at \(device.scale)x (\(slot.pixels(atScale: device.scale)) px) made from the single-size icon"])
                        .joined(separator: "; ")
                    return made
                }
                // The slot's own files, where one is at the device's scale (or any scale).
                let sized = candidates.filter { !isSingle($0) && $0.traits.size == slot.size }
                let provided: [SliceDecision] = sized.isEmpty ? [] : appearanceDecisions(sized, asset: asset, device: device, isIcon: true,
                                                                        reason: why + ["\(slot.size) slot"])
                    .filter { $0.action == .use }
                    .map { decision in
                        var used = decision
                        used.reason += "; the set's own file for the slot (only slots without one are made from the single-size icon)"
                        return used
                    }
                let covered = Set(provided.map(\.appearance))
                return provided + made.filter { !covered.contains($0.appearance) }
            }
        }
        let sizes = Set(candidates.compactMap(\.traits.size)).sorted { slotPoints($0) < slotPoints($1) }
        guard !sizes.isEmpty else {
            return appearanceDecisions(candidates, asset: asset, device: device, isIcon: true, reason: why)
        }
        return sizes.flatMap { size in
            appearanceDecisions(candidates.filter { $0.traits.size == size }, asset: asset, device: device,
                                isIcon: true, reason: why + ["\(size) slot"])
        }
    }

    /// The points of an icon size string (`83.5x83.5` → 83.5), for ordering slots.
    private static func slotPoints(_ size: String) -> Double {
        Double(size.split(separator: "x").first ?? "") ?? 0
    }

    /// (4)–(6) for one appearance: the entry for the device's scale and, on a Mac, each smaller
    /// scale's own entry too (never a generated one: Xcode ships what the set holds).
    private static func choose(_ entries: [CatalogEntry], asset: AssetID, appearance: Appearance, device: DeviceClass,
                               reason: [String]) -> [SliceDecision]? {
        guard let main = chooseAtDeviceScale(entries, asset: asset, appearance: appearance, device: device,
                                             reason: reason) else { return nil }
        guard device.platform == .macOS else { return [main] }
        let mainScale = main.entry.traits.scale?.factor ?? 0
        let smaller = entries.filter {
            guard let factor = $0.traits.scale?.factor else { return false }
            return factor < device.scale && factor != mainScale && $0.traits.displayGamut == main.entry.traits.displayGamut
                && $0.traits.memoryGB == main.entry.traits.memoryGB
                && $0.traits.graphicsFeatureSet == main.entry.traits.graphicsFeatureSet
        }
        let byScale = Dictionary(grouping: smaller) { $0.traits.scale!.factor }
        return [main] + byScale.keys.sorted().map { factor in
            let entry = byScale[factor]!.min { $0.file < $1.file }!
            return SliceDecision(asset: asset, appearance: appearance, entry: entry, action: .use, targetScale: nil,
                                 reason: (reason + ["scale \(factor)x too: the App Store does not thin Mac apps, and a Mac drives \(factor)x displays"])
                                    .joined(separator: "; "))
        }
    }

    private static func chooseAtDeviceScale(_ entries: [CatalogEntry], asset: AssetID, appearance: Appearance,
                                            device: DeviceClass, reason: [String]) -> SliceDecision? {
        // (4) Requirements.
        let deviceRank = device.graphicsFamily.flatMap(GraphicsFamily.rank(of:)) ?? 0
        var met = entries.filter {
            ($0.traits.memoryGB ?? 0) <= device.memoryGB
                && ($0.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0) <= deviceRank
        }
        func requirement(_ entry: CatalogEntry) -> (Int, Int) {
            (entry.traits.memoryGB ?? 0, entry.traits.graphicsFeatureSet.flatMap(GraphicsFamily.rank(of:)) ?? 0)
        }
        if let best = met.map(requirement).max(by: <) { met = met.filter { requirement($0) == best } }
        // (5) Gamut.
        let p3 = device.displayGamut == .displayP3
        let wide = met.filter { $0.traits.displayGamut == .displayP3 }
        met = p3 && !wide.isEmpty ? wide : met.filter { $0.traits.displayGamut != .displayP3 }
        guard !met.isEmpty else { return nil }
        var why = reason
        let (memory, rank) = met.map(requirement).max(by: <) ?? (0, 0)
        if memory > 0 { why.append("memory \(memory)GB ≤ \(device.memoryGB)GB") }
        if rank > 0 { why.append("graphics \(met[0].traits.graphicsFeatureSet ?? "") ≤ \(device.graphicsFamily ?? "")") }
        if p3 && !wide.isEmpty { why.append("display-P3 on a P3 device") }
        // (6) Scale.
        func decision(_ entry: CatalogEntry, _ action: SliceDecision.Action, target: Int?, _ clause: String) -> SliceDecision {
            var said = why
            if let bound = entry.traits.screenWidth {
                said.insert("screen width \(device.screenWidthPoints ?? 0) pt meets \(bound)", at: min(1, said.count))
            }
            return SliceDecision(asset: asset, appearance: appearance, entry: entry, action: action, targetScale: target,
                                 reason: (said + [clause]).joined(separator: "; "))
        }
        let sorted = met.sorted { ($0.traits.scale?.factor ?? 0, $0.file) < ($1.traits.scale?.factor ?? 0, $1.file) }
        if let exact = sorted.first(where: { $0.traits.scale?.factor == device.scale }) {
            return decision(exact, .use, target: nil, "scale \(device.scale)x exact")
        }
        if let any = sorted.first(where: { $0.traits.scale == nil }) {
            return decision(any, .use, target: nil, "single-scale entry")
        }
        if let larger = sorted.first(where: { ($0.traits.scale?.factor ?? 0) > device.scale }) {
            return decision(larger, .downscale, target: device.scale, "\(device.scale)x made from \(larger.traits.scale!)")
        }
        let smaller = sorted.last!
        return decision(smaller, .useSmaller, target: nil, "only \(smaller.traits.scale!) exists; not upscaled")
    }

    /// Android's rule (`AndroidDensityRule`, AOSP's `isBetterThan`) among the group's bitmaps and
    /// XML drawables; of entries at the chosen density, the highest API level wins. An `anydpi`
    /// entry the device's API level reaches beats every density: when it is an XML drawable (kept
    /// in the app), the device gets none of the bitmaps. A density bucket (`AndroidDensitySplit`:
    /// `android-xxhdpi` serves 364–526 dpi) gets every density some screen of its range draws, as
    /// bundletool fills Play's density splits; a single device (a spec's `android-420dpi`) one.
    private static func selectDensity(_ entries: [CatalogEntry], xmlDrawables: [CatalogEntry], asset: AssetID,
                                      appearance: Appearance, device: DeviceClass, dpi: Int) -> [SliceDecision] {
        // `nodpi` entries have no density to compare: they are not candidates here.
        func compared(_ entry: CatalogEntry) -> Int? {
            entry.traits.anyDensity == true ? AndroidDensityRule.anyDensity : entry.traits.densityDPI
        }
        let candidates = (entries + xmlDrawables).filter { compared($0) != nil }
        // An XML drawable is drawn from the app: where it wins, no bitmap ships.
        let isXML = { (entry: CatalogEntry) in xmlDrawables.contains(entry) }
        guard let density = AndroidDensityRule.best(of: candidates.map { compared($0)! }, screen: dpi) else { return [] }
        func winner(at density: Int) -> CatalogEntry? {
            candidates.filter { compared($0) == density }.min { (-apiLevel($0), $0.file) < (-apiLevel($1), $1.file) }
        }
        func levelClause(_ entry: CatalogEntry) -> String {
            entry.traits.minimumAPILevel != nil || entry.traits.anyDensity == true ? "; API level \(apiLevel(entry))" : ""
        }
        if density == AndroidDensityRule.anyDensity {
            // The XML drawable stays in the app, where Android draws it; no bitmap is needed.
            guard let best = winner(at: density), !isXML(best) else { return [] }
            return [SliceDecision(asset: asset, appearance: appearance, entry: best, action: .use, targetScale: nil,
                                  reason: "anydpi: Android draws it at any density, before every density bucket (AOSP's isBetterThan)"
                                      + levelClause(best))]
        }
        let split = AndroidDensitySplit(serving: device)
        // The density the bucket's own dpi draws first, then the others its range draws, lowest first.
        let shipped = [density] + (split?.reachable(candidates.map { compared($0)! }) ?? []).filter { $0 != density }
        return shipped.compactMap { shown in
            // An XML drawable in a density folder is drawn from the app: no bitmap for its density.
            guard let best = winner(at: shown), !isXML(best) else { return nil }
            var reason: String, action = SliceDecision.Action.use
            if shown == density {
                reason = density == dpi ? "density \(density) dpi matches the device"
                    : density > dpi ? "density \(density) dpi is what Android draws at \(dpi) dpi (AOSP's rule: scaling down counts twice as good as up)"
                    : "density \(density) dpi is what Android draws at \(dpi) dpi (AOSP's rule: no higher density is near enough)"
                if density < dpi { action = .useSmaller }
            } else {
                reason = "density \(shown) dpi is what Android draws on part of the \(split!.screensDescription) that Play's "
                    + "\(split!.alias) split serves (bundletool's ScreenDensitySelector)"
            }
            return SliceDecision(asset: asset, appearance: appearance, entry: best, action: action, targetScale: nil,
                                 reason: reason + levelClause(best))
        }
    }
}
