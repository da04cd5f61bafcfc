import Delivery
import TesseraCore

/// One place an app icon is drawn on a device (home screen, Spotlight, Settings, notifications),
/// in points, and the scales the devices that draw it have.
public struct AppIconSlot: Sendable, Hashable {
    /// The idiom of the devices with this slot (`iphone`, `ipad`).
    public let idiom: String
    /// Xcode's size string (`60x60`, `83.5x83.5`), as in an icon set's Contents.json.
    public let size: String
    /// One side, in points.
    public let points: Double
    /// Scale factors of the devices with this slot.
    public let scales: [Int]

    /// The slot's pixel side at `scale`, rounded as Xcode does (83.5 pt at 2x is 167 px).
    public func pixels(atScale scale: Int) -> Int { Int((points * Double(scale)).rounded()) }
}

/// The app icon slots each device class shows, for turning a single-size 1024 px icon (Xcode 14's
/// "single size", `platform: ios`) into the files older-style sets list one by one.
public enum AppIconSlots {
    /// iOS and iPadOS: app (60/76/83.5), Spotlight (40), Settings (29), notification (20). Every
    /// iPad that runs a current iPadOS is 2x, so no 1x slot is made.
    public static let iOS: [AppIconSlot] = [
        slot("iphone", 20, [2, 3]), slot("iphone", 29, [2, 3]), slot("iphone", 40, [2, 3]), slot("iphone", 60, [2, 3]),
        slot("ipad", 20, [2]), slot("ipad", 29, [2]), slot("ipad", 40, [2]), slot("ipad", 76, [2]),
        slot("ipad", 83.5, [2]),
    ]

    /// The slots `device` draws, each once: those of its idiom (iPhones and iPads only).
    public static func slots(for device: DeviceClass) -> [AppIconSlot] {
        guard device.platform == .iOS || device.platform == .iPadOS else { return [] }
        return iOS.filter { $0.idiom == device.idiom }
    }

    /// Every slot size any iOS device draws, with the union of the scales drawn at it, by size.
    public static var iOSSizes: [(size: String, points: Double, scales: [Int])] {
        var scales: [String: Set<Int>] = [:]
        var points: [String: Double] = [:]
        for slot in iOS {
            scales[slot.size, default: []].formUnion(slot.scales)
            points[slot.size] = slot.points
        }
        return points.keys.sorted { points[$0]! < points[$1]! }.map { ($0, points[$0]!, scales[$0]!.sorted()) }
    }

    /// Whether `entry` is a single-size iOS icon: one universal 1024×1024 image Xcode resizes itself.
    public static func isSingleSizeIOSIcon(_ entry: CatalogEntry) -> Bool {
        entry.traits.idiom == "universal" && entry.traits.size == "1024x1024"
            && (entry.traits.platform == nil || entry.traits.platform == "ios")
    }

    private static func slot(_ idiom: String, _ points: Double, _ scales: [Int]) -> AppIconSlot {
        let side = points == points.rounded() ? String(Int(points)) : String(points)
        return AppIconSlot(idiom: idiom, size: "\(side)x\(side)", points: points, scales: scales)
    }
}
