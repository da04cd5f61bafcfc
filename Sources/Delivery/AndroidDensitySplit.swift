/// One of Google Play's screen-density splits, as bundletool builds them
/// (`ScreenDensityResourcesSplitter`, `ScreenDensitySelector.selectAllMatchingConfigValues`): the
/// split of a density serves every screen whose best density among all the splits' is its own, so
/// it holds every density of a resource that some screen of that range draws — not only the one
/// its own density draws.
///
/// Tessera's Android buckets (`android-ldpi` … `android-xxxhdpi`, `KnownDevices`) are these splits:
/// `android-xxhdpi` is what a 364–526 dpi device gets. A device spec (`android-420dpi`) is one
/// screen, not a split: it gets the one density its dpi draws.
public struct AndroidDensitySplit: Sendable, Hashable {
    /// The density qualifier (`xxhdpi`).
    public let alias: String
    /// Its density in dpi (480).
    public let dpi: Int
    /// The lowest screen density the split serves; nil: every screen below it (the lowest split).
    public let lowestScreen: Int?
    /// The highest screen density the split serves; nil: every screen above it (the highest split).
    public let highestScreen: Int?

    /// bundletool's default density buckets (`DEFAULT_DENSITY_BUCKETS`), each split's range taken
    /// against all the others as bundletool takes it, whichever of them a build makes.
    public static let splitDensities: [(alias: String, dpi: Int)] = [
        ("ldpi", 120), ("mdpi", 160), ("tvdpi", 213), ("hdpi", 240), ("xhdpi", 320), ("xxhdpi", 480), ("xxxhdpi", 640),
    ]

    /// The seven splits, lowest first.
    public static let all: [AndroidDensitySplit] = splitDensities.map { AndroidDensitySplit(alias: $0.alias, dpi: $0.dpi) }

    /// bundletool's `getDpiRange`: from the turning point with the next lower split (rounded up)
    /// to the one with the next higher split (rounded down).
    private init(alias: String, dpi: Int) {
        self.alias = alias
        self.dpi = dpi
        let others = Self.splitDensities.map(\.dpi).filter { $0 != dpi }
        lowestScreen = others.filter { $0 < dpi }.max().map {
            Int(AndroidDensityRule.turningPoint(between: $0, and: dpi).rounded(.up))
        }
        highestScreen = others.filter { $0 > dpi }.min().map {
            Int(AndroidDensityRule.turningPoint(between: dpi, and: $0).rounded(.down))
        }
    }

    /// The split a device class stands for: one of Tessera's buckets (`android-xxhdpi` at 480 dpi);
    /// nil for a single device (a bundletool spec's `android-420dpi`) and for Apple devices.
    public init?(serving device: DeviceClass) {
        guard device.platform == .android,
              let split = Self.all.first(where: { device.id == "android-\($0.alias)" && device.densityDPI == $0.dpi })
        else { return nil }
        self = split
    }

    /// Whether a screen of `dpi` gets this split.
    public func serves(screen dpi: Int) -> Bool {
        (lowestScreen.map { dpi >= $0 } ?? true) && (highestScreen.map { dpi <= $0 } ?? true)
    }

    /// The densities of `densities` (a resource's, `AndroidDensityRule.anyDensity` for `anydpi`)
    /// that some screen the split serves draws: those from the one its lowest screen draws to the
    /// one its highest screen draws, as `getReachableConfigValues` bounds them (the rule is
    /// monotonic, so nothing outside them is drawn and everything between them may be). Sorted.
    public func reachable(_ densities: some Sequence<Int>) -> [Int] {
        let present = Set(densities)
        guard !present.isEmpty else { return [] }
        let low = lowestScreen.flatMap { AndroidDensityRule.best(of: present, screen: $0) } ?? present.min()!
        let high = highestScreen.flatMap { AndroidDensityRule.best(of: present, screen: $0) } ?? present.max()!
        return present.filter { (min(low, high)...max(low, high)).contains($0) }.sorted()
    }

    /// The range it serves, as people write it (`364–526 dpi`, `≤ 131 dpi`, `≥ 527 dpi`).
    public var screensDescription: String {
        switch (lowestScreen, highestScreen) {
        case let (low?, high?): "\(low)–\(high) dpi"
        case let (nil, high?): "≤ \(high) dpi"
        case let (low?, nil): "≥ \(low) dpi"
        case (nil, nil): "every density"
        }
    }
}
