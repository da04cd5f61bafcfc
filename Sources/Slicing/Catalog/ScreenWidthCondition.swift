/// Xcode's `screen-width` condition on watch entries (`<=145`, `>161`, `>183`): a comparison with
/// the device's screen width in points.
public struct ScreenWidthCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        // Longest operators first, so `<=` is not read as `<`.
        case atMost = "<=", atLeast = ">=", below = "<", above = ">"
    }

    public var comparison: Comparison
    public var points: Int

    /// Parses `<=145`-style text; nil for anything else.
    public init?(parsing text: String) {
        guard let comparison = Comparison.allCases.first(where: { text.hasPrefix($0.rawValue) }),
              let points = Int(text.dropFirst(comparison.rawValue.count)), points > 0 else { return nil }
        self.comparison = comparison
        self.points = points
    }

    public func isMet(byWidth width: Int) -> Bool {
        switch comparison {
        case .atMost: width <= points
        case .atLeast: width >= points
        case .below: width < points
        case .above: width > points
        }
    }

    public var description: String { "\(comparison.rawValue)\(points)" }
}
