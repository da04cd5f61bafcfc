import Foundation

/// The one way the reports write a number of bytes: Xcode's decimal units (`519 KB`, `6.7 MB`,
/// `1.2 GB`, as its App Thinning Size Report and Finder count), with amounts under 1 KB in bytes
/// where a budget or a change is judged by them ("1 KB" would hide that 14 bytes became 900).
public enum ByteText {
    /// Xcode's wording for a size: `Zero KB`, `519 KB`, `6.7 MB`, `1.2 GB`.
    public static func xcode(_ bytes: Int) -> String {
        if bytes == 0 { return "Zero KB" }
        if bytes < 1_000_000 { return "\(max(1, Int((Double(bytes) / 1000).rounded()))) KB" }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return String(format: "%.1f GB", Double(bytes) / 1_000_000_000)
    }

    /// A size a budget is judged by: Xcode's units, and bytes below 1 KB (`612 B`, `0 B`).
    public static func size(_ bytes: Int) -> String {
        abs(bytes) < 1000 ? "\(bytes) B" : (bytes < 0 ? "−" : "") + xcode(abs(bytes))
    }

    /// A change: `+1.2 MB`, `−519 KB`, `+612 B`, `0`.
    public static func change(_ bytes: Int) -> String {
        bytes == 0 ? "0" : (bytes > 0 ? "+" : "−") + size(abs(bytes))
    }

    /// Several devices' figures: one size when they agree, else the smallest and the largest
    /// (`23.4–23.6 MB`, each in its own unit when they differ: `980 KB–1.1 MB`).
    public static func range(_ values: [Int], _ format: (Int) -> String = size) -> String {
        guard let low = values.min(), let high = values.max() else { return "" }
        let (lowText, highText) = (format(low), format(high))
        if lowText == highText { return lowText }
        let lowParts = lowText.split(separator: " "), highParts = highText.split(separator: " ")
        if lowParts.count == 2, highParts.count == 2, lowParts[1] == highParts[1] { return "\(lowParts[0])–\(highText)" }
        return "\(lowText)–\(highText)"
    }

    /// Several devices' changes: `+22.9 MB`, `+1.5–2.0 MB` (one sign when they share it).
    public static func changeRange(_ values: [Int]) -> String {
        if values.allSatisfy({ $0 > 0 }) { return "+" + range(values) }
        if values.allSatisfy({ $0 < 0 }) { return "−" + range(values.map { -$0 }) }
        return range(values, change)
    }
}
