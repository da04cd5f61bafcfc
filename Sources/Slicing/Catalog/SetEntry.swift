import Delivery

/// One entry of a set's list (`images`, `data`, `symbols`, `colors`): the file it names, if any,
/// and what it is for, decoded once. The problems found in its traits and intent are kept with
/// them and reported only when the reader gets to them, so an entry whose file is missing is
/// one error, not one per questionable key.
struct SetEntry {
    /// Entry keys Xcode writes. The ones Tessera does not act on (locale, subtype...) are
    /// accepted quietly: every entry is still read and shipped.
    static let knownKeys: Set<String> = [
        "filename", "idiom", "scale", "subtype", "memory", "graphics-feature-set", "display-gamut", "appearances",
        "compression-type", "template-rendering-intent", "size", "role", "platform", "width-class", "height-class",
        "language-direction", "locale", "unassigned", "matching-style", "screen-width", "expected-size",
        "minimum-system-version", "orientation", "extent", "universal-type-identifier", "color", "symbols", "resizing",
    ]

    /// What `filename` holds.
    enum Filename: Equatable {
        /// No file: an empty slot, not an error.
        case none
        case notAString
        case name(String)
    }

    /// The entry itself, keyed `images[2]`.
    let field: ContentsField
    let filename: Filename
    /// nil when a value makes the entry unusable; the error is in `traitProblems`.
    let traits: VariantTraits?
    let traitProblems: [CatalogProblem]
    /// The entry's own `template-rendering-intent` (app icon and symbol sets set it per entry).
    let templateRenderingIntent: String?
    let intentProblems: [CatalogProblem]
    /// The entry's image slicing (`resizing`); nil when it has none or it is malformed (the
    /// warning is in `resizingProblems`).
    let resizing: ImageResizing?
    let resizingProblems: [CatalogProblem]

    init(_ field: ContentsField) {
        self.field = field
        switch field["filename"].value {
        case nil: filename = .none
        case let name as String: filename = .name(name)
        default: filename = .notAString
        }
        var problems: [CatalogProblem] = []
        traits = EntryTraits.read(field, problems: &problems)
        traitProblems = problems
        problems = []
        templateRenderingIntent = SetProperties.renderingIntent(field["template-rendering-intent"], problems: &problems)
        intentProblems = problems
        problems = []
        resizing = EntryResizing.read(field, problems: &problems)
        resizingProblems = problems
    }

    /// A warning for each key Xcode does not write.
    var unknownKeys: [CatalogProblem] { field.unknownKeys(known: Self.knownKeys.contains) }
}
