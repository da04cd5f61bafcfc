import TesseraCore

/// Reads the traits an Apple-style file name declares: `icon@2x.png` is asset `icon` at 2x.
public enum FileNameTraits {
    /// Splits a file stem (name without extension) into asset name and scale. The `@Nx` suffix
    /// counts only at the very end of the stem, so `a@2x-b` is an unsuffixed asset named `a@2x-b`.
    public static func parse(stem: String, unsuffixedScale: DisplayScale) -> (name: String, scale: DisplayScale) {
        guard let at = stem.lastIndex(of: "@") else { return (stem, unsuffixedScale) }
        let suffix = stem[stem.index(after: at)...]
        guard suffix.count == 2, suffix.hasSuffix("x"), let digit = suffix.first?.wholeNumberValue,
              let scale = DisplayScale(factor: digit), at != stem.startIndex else {
            return (stem, unsuffixedScale)
        }
        return (String(stem[..<at]), scale)
    }

    /// The file name suffix for a scale, Apple's way: none for 1x, `@2x` for 2x.
    public static func suffix(for scale: DisplayScale) -> String {
        scale == .x1 ? "" : "@\(scale.factor)x"
    }
}
