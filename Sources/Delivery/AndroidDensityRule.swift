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
///
/// An `anydpi` configuration (`anyDensity`, AOSP's `DENSITY_ANY`) beats every density before the
/// comparison starts: "we always prefer DENSITY_ANY over scaling a density bucket".
public enum AndroidDensityRule {
    /// The value `anydpi` stands for among densities: AOSP's and bundletool's `DENSITY_ANY`
    /// (0xfffe), which `prefers` puts above every density.
    public static let anyDensity = 0xfffe

    /// The API level an `anydpi` folder without `-vNN` is for: aapt2 versions `DENSITY_ANY` as
    /// Lollipop (`ConfigDescription::ApplyVersionForCompatibility`), so `drawable-anydpi` is
    /// compiled as `drawable-anydpi-v21` and an older device never matches it.
    public static let anyDensityAPILevel = 21

    /// Whether Android prefers `density` over `other` for a `screen` dpi device.
    public static func prefers(_ density: Int, over other: Int, screen: Int) -> Bool {
        guard density != other else { return false }
        // DENSITY_ANY wins before any scaling is weighed (ResourceTypes.cpp, isBetterThan).
        if density == anyDensity { return true }
        if other == anyDensity { return false }
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

    /// The screen density at which Android's choice between `low` and `high` (`low < high`) turns:
    /// screens below it draw `low`, screens above it `high`. The positive root of
    /// `(2l − d)·h = d²`, `(−h + √(h² + 8lh)) / 2`, as bundletool's `ScreenDensitySelector`
    /// computes it (its `getMidPoint`) to bound what each density split serves.
    public static func turningPoint(between low: Int, and high: Int) -> Double {
        precondition(low < high, "the lower density first")
        let (l, h) = (Double(low), Double(high))
        return (-h + (h * h + 8 * l * h).squareRoot()) / 2
    }
}
