/// The appearance a selected variant is shown in: what a device gets one variant per.
///
/// Catalog entries keep their `appearances` as the strings Contents.json gives (`light`, `dark`,
/// `high-contrast`, values a later Xcode adds...), so unknown ones survive reading; this is the
/// selection's answer, which only ever is one of these. Raw values are what slice reports and
/// bundle record traits (`appearance=dark`) carry.
public enum Appearance: String, Sendable, Hashable, Codable, CaseIterable {
    /// The default: entries with no appearance, or `light`.
    case any
    case dark
    /// Tinted app icons (iOS/iPadOS 18 and later).
    case tinted
}
