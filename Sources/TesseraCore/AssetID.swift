/// The stable name of an asset: its path under the input folder without scale or idiom suffixes
/// and without extension, with `/` separators (`icons/star` for `icons/star@3x.png`).
public struct AssetID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { name }

    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.name < rhs.name }

    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// A display scale factor: 1x, 2x, 3x, as in `name@2x.png`.
public struct DisplayScale: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let factor: Int

    public init?(factor: Int) {
        guard (1...4).contains(factor) else { return nil }
        self.factor = factor
    }

    public static let x1 = DisplayScale(factor: 1)!
    public static let x2 = DisplayScale(factor: 2)!
    public static let x3 = DisplayScale(factor: 3)!

    /// `1x`, `2x`, `3x`.
    public var description: String { "\(factor)x" }

    /// Parses `2x`, `@2x` or `2`.
    public init?(parsing text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("@") { digits = digits.dropFirst() }
        if digits.hasSuffix("x") { digits = digits.dropLast() }
        guard let value = Int(digits) else { return nil }
        self.init(factor: value)
    }

    public static func < (lhs: DisplayScale, rhs: DisplayScale) -> Bool { lhs.factor < rhs.factor }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = DisplayScale(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a scale like 2x"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
