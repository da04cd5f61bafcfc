import Delivery
import TesseraCore

/// The traits a set entry is for, read from its keys (`idiom`, `scale`, `memory`,
/// `graphics-feature-set`, `display-gamut`, `language-direction`, `screen-width`, `size`,
/// `platform`, `appearances`, `width-class`, `height-class`).
enum EntryTraits {
    static let idioms: Set<String> = [
        "universal", "iphone", "ipad", "mac", "tv", "watch", "car", "vision", "ios-marketing", "watch-marketing",
        "tv-marketing", "mac-catalyst", "marketing",
    ]
    /// Idioms shipping projects write under another name than the one Tessera's devices use:
    /// Xcode writes visionOS's as `reality` in app icon and image sets made by its templates.
    static let aliases = ["reality": "vision"]

    /// Keys whose values Xcode always writes as strings.
    private static let stringKeys = ["idiom", "scale", "memory", "graphics-feature-set", "display-gamut", "size",
                                     "language-direction", "screen-width", "platform", "width-class", "height-class", "subtype"]

    /// The entry's traits; nil (with an error) when a value makes the entry unusable. An unknown
    /// idiom is only a warning: it is kept, and matches no device.
    static func read(_ entry: ContentsField, problems: inout [CatalogProblem]) -> VariantTraits? {
        // A number (`"scale": 2`) is an error, never a silent "any scale".
        for key in stringKeys {
            if let value = entry[key].value, !(value is String) {
                problems.append(entry[key].problem("expected a string (like \(example(key))), found \(value)"))
                return nil
            }
        }
        var traits = VariantTraits()
        if let written = entry["idiom"].value as? String {
            let idiom = aliases[written] ?? written
            if !idioms.contains(idiom) { problems.append(entry["idiom"].problem("unknown idiom '\(idiom)'", isError: false)) }
            traits.idiom = idiom
        }
        /// The value of `key` parsed; nil when absent; throws (with the error reported) when unusable.
        func parse<T>(_ key: String, _ reason: (String) -> String, _ parser: (String) -> T?) throws(Unusable) -> T? {
            guard let text = entry[key].value as? String else { return nil }
            guard let value = parser(text) else {
                problems.append(entry[key].problem(reason(text)))
                throw Unusable()
            }
            return value
        }
        do {
            traits.scale = try parse("scale", { "'\($0)' is not a scale like 2x" }, DisplayScale.init(parsing:))
            traits.memoryGB = try parse("memory", { "'\($0)' is not a memory class like 2GB" }, memoryGB)
            traits.graphicsFeatureSet = try parse("graphics-feature-set", { "unknown graphics feature set '\($0)'" }) {
                GraphicsFamily.rank(of: $0) == nil ? nil : $0
            }
            traits.displayGamut = try parse("display-gamut", { "'\($0)' is not sRGB or display-P3" },
                                            DisplayGamut.init(rawValue:))
            traits.layoutDirection = try parse("language-direction",
                                               { "'\($0)' is not left-to-right or right-to-left" },
                                               LayoutDirection.init(rawValue:))
            traits.screenWidth = try parse("screen-width", { "'\($0)' is not a width condition like >183" },
                                           ScreenWidthCondition.init(parsing:))
            traits.widthClass = try parse("width-class", { "'\($0)' is not a size class: compact or regular" },
                                          SizeClass.init(rawValue:))
            traits.heightClass = try parse("height-class", { "'\($0)' is not a size class: compact or regular" },
                                           SizeClass.init(rawValue:))
        } catch {
            return nil
        }
        traits.size = entry["size"].value as? String
        traits.platform = entry["platform"].value as? String
        traits.subtype = entry["subtype"].value as? String
        traits.role = entry["role"].value as? String
        if let appearances = entry["appearances"].value as? [[String: String]] {
            traits.appearances = appearances.compactMap { $0["value"] }.sorted()
            for appearance in appearances where knownAppearances[appearance["appearance"] ?? ""]?.contains(appearance["value"] ?? "") != true {
                problems.append(entry["appearances"].problem(
                    "unknown appearance \(appearance["appearance"] ?? "(none)") = \(appearance["value"] ?? "(none)") (known: luminosity light, dark or tinted; contrast high); the entry ships to no device",
                    isError: false))
            }
            if !traits.appearances.isEmpty, Appearance(entryValues: traits.appearances) == nil,
               appearances.allSatisfy({ knownAppearances[$0["appearance"] ?? ""]?.contains($0["value"] ?? "") == true }) {
                problems.append(entry["appearances"].problem(
                    "appearances \(traits.appearances.joined(separator: " + ")) combine two luminosities; the entry ships to no device",
                    isError: false))
            }
        } else if let value = entry["appearances"].value {
            problems.append(entry["appearances"].problem("expected a list of {appearance, value}, found \(value)"))
            return nil
        }
        return traits
    }

    /// The appearances Xcode writes, by kind (`appearance`) and their values.
    static let knownAppearances: [String: Set<String>] = ["luminosity": ["light", "dark", "tinted"], "contrast": ["high"]]

    /// A value that makes the entry unusable (the first one found is reported).
    private struct Unusable: Error {}

    /// `2GB` as 2.
    private static func memoryGB(_ text: String) -> Int? {
        guard text.hasSuffix("GB"), let value = Int(text.dropLast(2)), value > 0 else { return nil }
        return value
    }

    private static func example(_ key: String) -> String {
        switch key {
        case "scale": "\"2x\""
        case "memory": "\"2GB\""
        case "screen-width": "\">183\""
        case "language-direction": "\"right-to-left\""
        case "display-gamut": "\"display-P3\""
        case "graphics-feature-set": "\"apple5\""
        case "size": "\"60x60\""
        case "platform": "\"ios\""
        case "width-class", "height-class": "\"compact\""
        case "subtype": "\"41mm\""
        default: "\"universal\""
        }
    }
}
