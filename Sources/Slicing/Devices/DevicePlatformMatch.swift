import Delivery

/// Which devices an entry's `platform` and watch `subtype` are for.
enum DevicePlatformMatch {
    /// `ios` is for iPhones and iPads, `watchos`, `macos`, `tvos` and `visionos` for their own
    /// devices; an entry naming none is for every platform its idiom allows.
    static func matches(platform: String?, device: DeviceClass) -> Bool {
        guard let platform else { return true }
        return switch platform {
        case "ios": device.platform == .iOS || device.platform == .iPadOS
        case "watchos": device.platform == .watchOS
        case "macos": device.platform == .macOS
        case "tvos": device.platform == .tvOS
        case "visionos", "xros": device.platform == .visionOS
        default: false
        }
    }

    /// Watch case sizes (`38mm` … `49mm`) match only a watch of that case; other subtypes
    /// (`retina4`, `667h`: screen heights of old iPhones) and none match every device.
    static func matches(subtype: String?, device: DeviceClass) -> Bool {
        guard let subtype, subtype.hasSuffix("mm") else { return true }
        return device.platform == .watchOS && device.watchCaseSize == subtype
    }
}
