import TesseraCore

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

    /// The pixel size of `target`'s variant of `master`: by the scale ratio, or, for a slot master
    /// (`SourceImage.slotPoints`), the slot's points times the target scale, keeping the aspect ratio.
    public static func size(of master: SourceImage, width: Int, height: Int,
                            targetScale: DisplayScale) -> (width: Int, height: Int) {
        size(masterScale: master.scale, slotPoints: master.slotPoints, width: width, height: height,
             targetScale: targetScale)
    }

    /// The same, from the master's scale and slot (`SourceImage.slotPoints`) alone.
    public static func size(masterScale: DisplayScale, slotPoints: Double?, width: Int, height: Int,
                            targetScale: DisplayScale) -> (width: Int, height: Int) {
        guard let points = slotPoints else {
            return size(masterWidth: width, masterHeight: height, masterScale: masterScale.factor,
                        targetScale: targetScale.factor)
        }
        let side = points * Double(targetScale.factor)
        let ratio = side / Double(max(width, height))
        return (max(1, Int((Double(width) * ratio).rounded())), max(1, Int((Double(height) * ratio).rounded())))
    }
}
