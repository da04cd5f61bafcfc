/// A point in device-trait space: what an app-thinning or bundle decision is made for.
public struct DeviceClass: Sendable, Hashable, Codable {
    public enum Platform: String, Sendable, Codable, CaseIterable {
        case iOS = "ios", iPadOS = "ipados", macOS = "macos", tvOS = "tvos", watchOS = "watchos", visionOS = "visionos"
        case android
    }

    /// A model identifier (`iPhone15,2`) or a class name (`android-xxhdpi`).
    public var id: String
    /// What people call it (`iPhone 14 Pro`).
    public var name: String
    public var platform: Platform
    /// Asset-catalog idiom: `iphone`, `ipad`, `tv`, `watch`, `vision`; `phone` on Android.
    public var idiom: String
    /// Display scale (Apple) or the nearest scale to the density (Android: dpi / 160).
    public var scale: Int
    /// Android screen density in dpi.
    public var densityDPI: Int?
    public var memoryGB: Int
    /// GPU family (`apple8`); see `GraphicsFamily` in Slicing.
    public var graphicsFamily: String?
    public var displayGamut: DisplayGamut
    public var supportsDarkMode: Bool
    /// Screen width in points, for watches (`screen-width` entries); nil when not needed.
    public var screenWidthPoints: Int?
    /// Whether the device's current OS shows tinted app icons (iOS/iPadOS 18 and later); nil: no.
    public var supportsTintedIcons: Bool?
    /// Android API level (a bundletool spec's `sdkVersion`); nil: a current Android.
    public var androidAPILevel: Int?
    /// The major version of the newest OS release the device runs (`16` for an iPhone 8: iOS 16);
    /// what a deployment target is compared with. nil: a current release (and Android, whose
    /// devices are told apart by `androidAPILevel`).
    public var newestOS: Int?

    /// A watch's case size as asset catalogs name it (`subtype: 41mm`), from its screen width in
    /// points; nil for other devices.
    public var watchCaseSize: String? {
        guard platform == .watchOS, let width = screenWidthPoints else { return nil }
        return Self.watchCases[width]
    }

    /// Screen width in points → case size: 38/42 mm (Series 0–3), 40/44 mm (4–6, SE), 41/45 mm
    /// (7–9), 42/46 mm (10 and later), 49 mm (Ultra).
    static let watchCases: [Int: String] = [136: "38mm", 156: "42mm", 162: "40mm", 184: "44mm", 176: "41mm",
                                            198: "45mm", 187: "42mm", 208: "46mm", 205: "49mm"]

    public init(id: String, name: String, platform: Platform, idiom: String, scale: Int, densityDPI: Int? = nil,
                memoryGB: Int, graphicsFamily: String?, displayGamut: DisplayGamut, supportsDarkMode: Bool,
                screenWidthPoints: Int? = nil, supportsTintedIcons: Bool? = nil, androidAPILevel: Int? = nil,
                newestOS: Int? = nil) {
        self.id = id
        self.name = name
        self.platform = platform
        self.idiom = idiom
        self.scale = scale
        self.densityDPI = densityDPI
        self.memoryGB = memoryGB
        self.graphicsFamily = graphicsFamily
        self.displayGamut = displayGamut
        self.supportsDarkMode = supportsDarkMode
        self.screenWidthPoints = screenWidthPoints
        self.supportsTintedIcons = supportsTintedIcons
        self.androidAPILevel = androidAPILevel
        self.newestOS = newestOS
    }

    /// Whether the device runs an OS at least `major` (a device with no `newestOS` runs a current one).
    public func runs(osAtLeast major: Int) -> Bool { (newestOS ?? Int.max) >= major }
}
