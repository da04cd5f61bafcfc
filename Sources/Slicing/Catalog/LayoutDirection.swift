/// The writing direction an entry is drawn for (Xcode's `language-direction`, Android's
/// `-ldrtl`/`-ldltr` qualifiers).
public enum LayoutDirection: String, Sendable, Hashable, Codable {
    case leftToRight = "left-to-right"
    case rightToLeft = "right-to-left"
}
