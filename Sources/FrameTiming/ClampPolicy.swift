/// How raw frame delays become play durations.
///
/// `browser` (the default) plays a delay of 10 ms or less as 100 ms, as Firefox, Chromium,
/// WebKit and Apple's ImageIO do: many GIFs say 0 and mean "as fast as you reasonably can".
/// `none` keeps raw values (a 0 stays 0). `minimum(N)` raises every delay below N ms to N.
public enum ClampPolicy: Sendable, Equatable, CustomStringConvertible {
    case browser
    case none
    case minimum(Int)

    /// Parses `browser`, `none` or `min:N`.
    public init?(parsing text: String) {
        switch text {
        case "browser": self = .browser
        case "none": self = .none
        default:
            guard text.hasPrefix("min:"), let value = Int(text.dropFirst(4)), value >= 0 else { return nil }
            self = .minimum(value)
        }
    }

    public func duration(forDelay delayMs: Int) -> Int {
        switch self {
        case .browser: delayMs <= 10 ? 100 : delayMs
        case .none: max(0, delayMs)
        case .minimum(let floor): max(floor, delayMs)
        }
    }

    public var description: String {
        switch self {
        case .browser: "browser"
        case .none: "none"
        case .minimum(let value): "min:\(value)"
        }
    }
}
