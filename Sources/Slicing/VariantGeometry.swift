/// The pixel size of a variant made from a master at another scale.
public enum VariantGeometry {
    /// Each side scaled by `target / master` and rounded to the nearest pixel, never below 1:
    /// a 100×100 3x master gives a 67×67 2x and a 33×33 1x variant.
    public static func size(masterWidth: Int, masterHeight: Int, masterScale: Int,
                            targetScale: Int) -> (width: Int, height: Int) {
        let ratio = Double(targetScale) / Double(masterScale)
        return (max(1, Int((Double(masterWidth) * ratio).rounded())),
                max(1, Int((Double(masterHeight) * ratio).rounded())))
    }
}
