import Foundation

/// Expiry times as signed documents write them: RFC 3339 in UTC with whole seconds
/// (`2027-01-01T00:00:00Z`), one spelling per instant so the signed bytes are deterministic.
public enum TrustTime {
    public static func format(_ date: Date) -> String {
        formatter().string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// The instant, or nil when `text` is not in exactly that form.
    public static func parse(_ text: String) -> Date? {
        guard let date = formatter().date(from: text), format(date) == text else { return nil }
        return date
    }

    // A new formatter per call: ISO8601DateFormatter is not Sendable, and expiries are read rarely.
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }
}
