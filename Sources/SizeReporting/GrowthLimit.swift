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

    public var description: String {
        switch self {
        case .bytes(let bytes): ByteText.size(bytes)
        case .percent(let share): share == share.rounded() ? "\(Int(share))%" : "\(share)%"
        }
    }
}
