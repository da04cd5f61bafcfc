/// How raw frame delays become play durations.
///
/// `browser` (the default) plays a delay of 10 ms or less as 100 ms, as Firefox, Chromium,
/// WebKit and Apple's ImageIO do: many GIFs say 0 and mean "as fast as you reasonably can".
/// `none` keeps raw values (a 0 stays 0). `minimum(N)` raises every delay below N ms to N.
public enum ClampPolicy: Sendable, Hashable, Codable, CustomStringConvertible {
    case browser
    case none
    case minimum(Int)

    /// The largest N `min:N` accepts: one hour. No real animation holds a frame longer, and the
    /// bound keeps every sum of durations far from `Int` overflow.
    public static let maximumFloorMs = 3_600_000

    /// Parses `browser`, `none` or `min:N` with 0 ≤ N ≤ `maximumFloorMs`.
    public init?(parsing text: String) {
        switch text {
        case "browser": self = .browser
        case "none": self = .none
        default:
            guard text.hasPrefix("min:"), let value = Int(text.dropFirst(4)),
                  (0...Self.maximumFloorMs).contains(value) else { return nil }
            self = .minimum(value)
        }
    }

    /// What to tell someone whose text `init(parsing:)` refused.
    public static let usage = "use browser, none or min:N with N from 0 to \(maximumFloorMs) ms (1 hour)"

    /// The played duration; never negative. A floor above `maximumFloorMs` (possible only by
    /// building `.minimum` directly) is held at that bound.
    public func duration(forDelay delayMs: Int) -> Int {
        switch self {
        case .browser: delayMs <= 10 ? 100 : delayMs
        case .none: max(0, delayMs)
        case .minimum(let floor): max(min(floor, Self.maximumFloorMs), delayMs, 0)
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
