/// Which of a resource's densities Android draws on a screen of a given density: AOSP's
/// `ResTable_config::isBetterThan` (frameworks/base libs/androidfw/ResourceTypes.cpp), which
/// bundletool's `ScreenDensitySelector` applies to build each density split. The one copy of the
/// rule: slicing, `tessera query`'s nearest built class, the Play packs and the size report all
/// ask it.
///
/// Between two densities `l < h` around a screen of `d` dpi: a screen at or above both takes `h`,
/// one at or below both takes `l`; in between, `l` only when `(2l − d)·h > d²` (scaling down is
/// counted twice as good as scaling up, in area), else `h`. So a 213 dpi (tvdpi) screen with mdpi
/// and xhdpi files draws xhdpi, and a 420 dpi one with xhdpi and xxxhdpi draws xxxhdpi.
public enum AndroidDensityRule {
    /// Whether Android prefers `density` over `other` for a `screen` dpi device.
    public static func prefers(_ density: Int, over other: Int, screen: Int) -> Bool {
        guard density != other else { return false }
        let high = max(density, other), low = min(density, other)
        let isHigher = density == high
        if screen >= high { return isHigher }
        if low >= screen { return !isHigher }
        return (2 * low - screen) * high > screen * screen ? !isHigher : isHigher
    }

    /// The density Android draws among `densities` on a `screen` dpi device; nil when there is none.
    /// Each candidate is compared with the best so far, as AOSP walks a resource's configurations.
    public static func best(of densities: some Sequence<Int>, screen: Int) -> Int? {
        var best: Int?
        for density in Set(densities).sorted() where best.map({ prefers(density, over: $0, screen: screen) }) ?? true {
            best = density
        }
        return best
    }
}
