import Foundation

/// Rules for on-demand resource tag names. Tags become plist strings, file names and bundle
/// names, so they must be non-empty, free of control characters (which plists cannot hold) and
/// free of `/` (which would make a path).
public enum OnDemandTag {
    /// Why `tag` cannot be used, or nil when it can.
    public static func problem(with tag: String) -> String? {
        if tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            let shown = tag.unicodeScalars.map { $0.properties.generalCategory == .control
                ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
            return "tag '\(shown)' contains a control character"
        }
        if tag.trimmingCharacters(in: .whitespaces).isEmpty { return "a tag is empty" }
        if tag.contains("/") { return "tag '\(tag)' contains '/'" }
        return nil
    }
}
