import Delivery

/// How a device runs an app built for other devices (`TARGETED_DEVICE_FAMILY`): an iPad runs an
/// iPhone-only app as an iPhone app, at 2x, and the App Store installs the iPhone variants on it.
public enum DeviceFamilyRule {
    /// `device` as the app of `family` sees it: an iPad with an iPhone-only app is given the
    /// iPhone idiom (its scale and every other trait its own); any other pairing is unchanged.
    public static func device(_ device: DeviceClass, runningAppOf family: Set<String>?) -> DeviceClass {
        guard let family, !family.contains(device.idiom) else { return device }
        guard device.idiom == "ipad", family.contains("iphone") else { return device }
        var running = device
        running.idiom = "iphone"
        running.platform = .iOS
        return running
    }
}
