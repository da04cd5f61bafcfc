/// A horizontal or vertical size class (`width-class`, `height-class` in a set's entry): UIKit's
/// `UIUserInterfaceSizeClass`. Which one applies changes at run time (rotation, split view), so
/// app thinning ships every size-class entry of the device's idiom and the app picks among them.
public enum SizeClass: String, Sendable, Hashable, Codable, Comparable {
    case compact, regular

    public static func < (lhs: SizeClass, rhs: SizeClass) -> Bool { lhs.rawValue < rhs.rawValue }
}
