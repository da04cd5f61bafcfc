/// The appearance a selected variant is shown in: what a device gets one variant per.
///
/// Catalog entries keep their `appearances` as the values Contents.json gives (`light`, `dark`,
/// `tinted` for luminosity, `high` for contrast); this is the selection's answer, one per
/// combination an app can be shown in. Raw values are what slice reports and bundle record traits
/// (`appearance=dark-high-contrast`) carry. Every combination is a run-time trait: the OS picks
/// among them as the user switches, so a device gets every one it can show
/// (`docs/catalog-conformance.md`).
public struct Appearance: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The default: entries with no appearance.
    public static let any = Appearance(rawValue: "any")
    /// Light mode, where a set gives it apart from its Any entry.
    public static let light = Appearance(rawValue: "light")
    public static let dark = Appearance(rawValue: "dark")
    /// Tinted app icons (iOS/iPadOS 18 and later).
    public static let tinted = Appearance(rawValue: "tinted")
    /// Increase Contrast on (`appearance: contrast, value: high`), alone or with a luminosity.
    public static let highContrast = Appearance(rawValue: "high-contrast")
    public static let lightHighContrast = Appearance(rawValue: "light-high-contrast")
    public static let darkHighContrast = Appearance(rawValue: "dark-high-contrast")

    /// The appearance an entry's `appearances` values (sorted) stand for; nil for a combination
    /// no Apple OS shows (a value Tessera does not know, two luminosities).
    public init?(entryValues values: [String]) {
        let luminosity = values.filter { $0 != "high" }
        let contrast = values.contains("high")
        guard luminosity.count <= 1, values.count == luminosity.count + (contrast ? 1 : 0) else { return nil }
        switch (luminosity.first, contrast) {
        case (nil, false): self = .any
        case (nil, true): self = .highContrast
        case ("light", false): self = .light
        case ("light", true): self = .lightHighContrast
        case ("dark", false): self = .dark
        case ("dark", true): self = .darkHighContrast
        case ("tinted", false): self = .tinted
        default: return nil
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: Appearance, rhs: Appearance) -> Bool { lhs.order < rhs.order }

    /// Any first, then light, dark, tinted, then the high-contrast ones.
    private var order: (Int, String) {
        let known: [Appearance] = [.any, .light, .dark, .tinted, .highContrast, .lightHighContrast, .darkHighContrast]
        return (known.firstIndex(of: self) ?? known.count, rawValue)
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
