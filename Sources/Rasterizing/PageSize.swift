/// A vector page's size in points (1/72 inch; one SVG CSS pixel), before any scale.
public struct PageSize: Sendable, Equatable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(Self.format(width))×\(Self.format(height)) pt" }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
