import TesseraCore

/// A plain folder's file stem read the Xcode way: `icon@2x~ipad` is asset `icon`, at 2x, for
/// iPad. The suffixes are anchored at the end of the stem; a stem without `@Nx` is at the
/// folder's unsuffixed scale (1x unless the pipeline says otherwise).
struct XcodeFileName {
    /// Idioms a `~suffix` may name.
    static let idiomSuffixes = ["iphone", "ipad", "tv", "watch", "mac", "car", "vision"]

    /// The asset name: the stem without its suffixes.
    let name: String
    let traits: VariantTraits

    init(stem: String, unsuffixedScale: DisplayScale) {
        var stem = stem
        var traits = VariantTraits()
        if let tilde = stem.lastIndex(of: "~"), Self.idiomSuffixes.contains(String(stem[stem.index(after: tilde)...])) {
            traits.idiom = String(stem[stem.index(after: tilde)...])
            stem = String(stem[..<tilde])
        }
        let parsed = FileNameTraits.parse(stem: stem, unsuffixedScale: unsuffixedScale)
        traits.scale = parsed.scale
        name = parsed.name
        self.traits = traits
    }
}
