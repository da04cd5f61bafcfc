import Foundation
import TesseraCore

/// How much something may grow against the previous build (`--against`): by a size (`200KB`) or by
/// a share of what it was (`5%`).
public enum GrowthLimit: Sendable, Equatable, Codable, CustomStringConvertible {
    case bytes(Int)
    case percent(Double)

    /// `5%`, `0.5%` or a size (`200KB`, `1MiB`, `0`); nil for anything else.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            guard let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), value >= 0, value.isFinite else { return nil }
            self = .percent(value)
        } else if let size = ByteCount(parsing: trimmed) {
            self = .bytes(size.bytes)
        } else {
            return nil
        }
    }

    /// The bytes something of `before` bytes may grow by; nil when the limit says nothing of it (a
    /// share of something that did not exist).
    public func allowance(before: Int) -> Int? {
        switch self {
        case .bytes(let bytes): bytes
        case .percent(let share): before > 0 ? Int((Double(before) * share / 100).rounded(.down)) : nil
        }
    }

    /// Exact enough to judge a limit by: bytes below 1 kB, else kB, MB, GB with one decimal.
    public static func size(_ bytes: Int) -> String {
        let magnitude = abs(Double(bytes))
        if magnitude < 1000 { return "\(bytes) B" }
        let (value, unit) = magnitude < 1e6 ? (Double(bytes) / 1e3, "kB") : magnitude < 1e9 ? (Double(bytes) / 1e6, "MB") : (Double(bytes) / 1e9, "GB")
        return String(format: "%.1f %@", value, unit)
    }

    public var description: String {
        switch self {
        case .bytes(let bytes): Self.size(bytes)
        case .percent(let share): share == share.rounded() ? "\(Int(share))%" : "\(share)%"
        }
    }
}
