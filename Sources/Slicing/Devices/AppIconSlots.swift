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
    /// The OS major version that first draws the slot (iOS 16 for 38, 64 and 68 pt); nil: every.
    public let sinceOS: Int?

    /// The slot's pixel side at `scale`, rounded as Xcode does (83.5 pt at 2x is 167 px).
    public func pixels(atScale scale: Int) -> Int { Int((points * Double(scale)).rounded()) }
}

/// The app icon slots each device class shows, for turning a single-size 1024 px icon (Xcode 14's
/// "single size", `platform: ios`) into the files older-style sets list one by one.
public enum AppIconSlots {
    /// iOS and iPadOS: app (60/76/83.5), Spotlight (40), Settings (29), notification (20), and the
    /// three sizes Xcode 14 added to an icon set's "All Sizes" layout for iOS 16's system UI: 38 and
    /// 64 pt on iPhone (2x and 3x) and iPad, 68 pt on iPad (the layout Xcode writes lists 38 and 64
    /// at 2x and 3x and 68 at 2x only; real Xcode-made sets agree). Every iPad that runs a current
    /// iPadOS is 2x, so no 1x slot is made.
    public static let iOS: [AppIconSlot] = [
        slot("iphone", 20, [2, 3]), slot("iphone", 29, [2, 3]), slot("iphone", 38, [2, 3], since: 16),
        slot("iphone", 40, [2, 3]), slot("iphone", 60, [2, 3]), slot("iphone", 64, [2, 3], since: 16),
        slot("ipad", 20, [2]), slot("ipad", 29, [2]), slot("ipad", 38, [2], since: 16), slot("ipad", 40, [2]),
        slot("ipad", 64, [2], since: 16), slot("ipad", 68, [2], since: 16), slot("ipad", 76, [2]), slot("ipad", 83.5, [2]),
    ]

    /// watchOS, as Xcode's watch app icon set lists them (all 2x): the home screen
    /// (`appLauncher`), notification centre and short look per case size, and the iPhone Watch
    /// app's settings icon, which has no case size.
    public static let watch: [(role: String, caseSize: String?, slot: AppIconSlot)] = [
        ("appLauncher", "38mm", slot("watch", 40, [2])), ("appLauncher", "40mm", slot("watch", 44, [2])),
        ("appLauncher", "41mm", slot("watch", 46, [2])), ("appLauncher", "44mm", slot("watch", 50, [2])),
        ("appLauncher", "45mm", slot("watch", 51, [2])), ("appLauncher", "49mm", slot("watch", 54, [2])),
        ("notificationCenter", "38mm", slot("watch", 24, [2])), ("notificationCenter", "42mm", slot("watch", 27.5, [2])),
        ("notificationCenter", "45mm", slot("watch", 33, [2])),
        ("quickLook", "38mm", slot("watch", 86, [2])), ("quickLook", "42mm", slot("watch", 98, [2])),
        ("quickLook", "44mm", slot("watch", 108, [2])), ("quickLook", "45mm", slot("watch", 117, [2])),
        ("quickLook", "49mm", slot("watch", 129, [2])),
        ("companionSettings", nil, slot("watch", 29, [2])),
    ]

    /// The slots `device` draws, each once: an iPhone's or iPad's of its idiom (those its newest OS
    /// draws); a watch's, per
    /// role the case size nearest its own (the larger on a tie).
    public static func slots(for device: DeviceClass) -> [AppIconSlot] {
        switch device.platform {
        case .iOS, .iPadOS:
            return iOS.filter { $0.idiom == device.idiom && device.runs(osAtLeast: $0.sinceOS ?? 0) }
        case .watchOS:
            guard let own = device.watchCaseSize.flatMap({ Int($0.dropLast(2)) }) else { return [] }
            var chosen: [AppIconSlot] = []
            for role in ["appLauncher", "notificationCenter", "quickLook", "companionSettings"] {
                let candidates = watch.filter { $0.role == role }
                let best = candidates.min { a, b in
                    let x = a.caseSize.flatMap { Int($0.dropLast(2)) } ?? own, y = b.caseSize.flatMap { Int($0.dropLast(2)) } ?? own
                    return (abs(x - own), -x) < (abs(y - own), -y)
                }
                if let best { chosen.append(best.slot) }
            }
            return chosen
        default:
            return []
        }
    }

    /// Every slot size any watch draws, by size (for planning the slots of a single-size icon).
    public static var watchSizes: [(size: String, points: Double, scales: [Int])] {
        var seen: Set<String> = []
        return watch.map(\.slot).filter { seen.insert($0.size).inserted }.sorted { $0.points < $1.points }
            .map { ($0.size, $0.points, $0.scales) }
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

    /// Whether `entry` is a single-size watchOS icon (`platform: watchos`), which Xcode resizes
    /// into every watch slot.
    public static func isSingleSizeWatchIcon(_ entry: CatalogEntry) -> Bool {
        entry.traits.idiom == "universal" && entry.traits.size == "1024x1024" && entry.traits.platform == "watchos"
    }

    /// Whether `entry` is a single-size icon the slots of `device` are made from.
    public static func isSingleSizeIcon(_ entry: CatalogEntry, for device: DeviceClass) -> Bool {
        device.platform == .watchOS ? isSingleSizeWatchIcon(entry) : isSingleSizeIOSIcon(entry)
    }

    private static func slot(_ idiom: String, _ points: Double, _ scales: [Int], since: Int? = nil) -> AppIconSlot {
        let side = points == points.rounded() ? String(Int(points)) : String(points)
        return AppIconSlot(idiom: idiom, size: "\(side)x\(side)", points: points, scales: scales, sinceOS: since)
    }
}
