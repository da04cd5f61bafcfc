import Foundation

/// A size in bytes, parsed from what people type: `1073741824`, `512MB`, `1GiB`, `64k`.
///
/// Decimal suffixes (KB, MB, GB) are powers of 1000 and binary ones (KiB, MiB, GiB, and the bare
/// K, M, G) powers of 1024, the convention of `dd` and most memory-related options.
public struct ByteCount: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let bytes: Int

    public init(bytes: Int) { self.bytes = bytes }

    /// Parses a size; nil when the text is not one.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Double(digits), number >= 0 else { return nil }
        let multipliers: [String: Double] = [
            "": 1, "b": 1,
            "k": 0x1p10, "kib": 0x1p10, "kb": 1e3,
            "m": 0x1p20, "mib": 0x1p20, "mb": 1e6,
            "g": 0x1p30, "gib": 0x1p30, "gb": 1e9,
            "t": 0x1p40, "tib": 0x1p40, "tb": 1e12,
        ]
        guard let multiplier = multipliers[unit] else { return nil }
        let value = number * multiplier
        guard value < Double(Int.max) else { return nil }
        self.bytes = Int(value.rounded())
    }

    public static let gibibyte = ByteCount(bytes: 1 << 30)

    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }

    /// A short human form, in binary units: `1.0 GiB`, `12.5 MiB`, `800 B`.
    public var description: String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var index = 0
        while value >= 1024, index < units.count - 1 {
            value /= 1024
            index += 1
        }
        if index == 0 { return "\(bytes) B" }
        return "\((value * 10).rounded() / 10) \(units[index])"
    }
}
