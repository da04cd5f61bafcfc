/// How a large reduction is split into cheap stages before the final filter, as libvips does.
///
/// The rule: of the shrink-on-load factors the decoder offers (JPEG's DCT scaling: 8, 4, 2),
/// take the largest that still leaves at least 2× of reduction on both axes for the final
/// filter; then, per axis, box-average by the integer `k = ⌊r / 2⌋` of the remaining ratio `r`
/// (when `k ≥ 2`), which again leaves between 2× and 4× for the final filter. Leaving at least 2×
/// is what keeps quality: the decoder's and the box's cheap averaging alias, and the
/// final filter (Lanczos-3 by default) needs that margin to remove it. A box side is capped at
/// 256 pixels so a box's sum of at most 65,536 values stays exact in single-precision floats.
public struct ShrinkPlan: Sendable, Equatable {
    /// Shrink-on-load factor asked of the decoder: 1, 2, 4 or 8.
    public let decodeDenominator: Int
    /// Box-average factors applied to the decoded rows.
    public let boxX: Int
    public let boxY: Int

    public init(decodeDenominator: Int, boxX: Int, boxY: Int) {
        self.decodeDenominator = decodeDenominator
        self.boxX = boxX
        self.boxY = boxY
    }

    static let maxBox = 256

    /// The plan for reducing `sourceWidth`×`sourceHeight` to `targetWidth`×`targetHeight`.
    /// `denominators` lists the decoder's shrink-on-load factors (`[1]` when it has none).
    public static func plan(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int,
                            denominators: [Int] = [1]) -> ShrinkPlan {
        let rx = Double(sourceWidth) / Double(targetWidth)
        let ry = Double(sourceHeight) / Double(targetHeight)
        let denominator = denominators.filter { rx / Double($0) >= 2 && ry / Double($0) >= 2 }.max() ?? 1
        let boxX = min(maxBox, max(1, Int(rx / Double(denominator) / 2)))
        let boxY = min(maxBox, max(1, Int(ry / Double(denominator) / 2)))
        return ShrinkPlan(decodeDenominator: denominator, boxX: boxX, boxY: boxY)
    }
}
