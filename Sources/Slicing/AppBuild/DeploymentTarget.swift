import Delivery

/// The oldest OS release an app target runs on (Xcode's `IPHONEOS_DEPLOYMENT_TARGET`,
/// `MACOSX_DEPLOYMENT_TARGET`, `WATCHOS_DEPLOYMENT_TARGET`, `TVOS_DEPLOYMENT_TARGET`,
/// `XROS_DEPLOYMENT_TARGET`), by platform. A device whose newest OS is older cannot install the
/// app, so the App Store gives it nothing of the target: neither does Tessera.
///
/// Only the major version is compared: a device's last release of a major version is its
/// newest point release, which meets any `major.minor` target of that major version.
public struct DeploymentTarget: Sendable, Hashable, Codable {
    /// Major version by platform key: `ios` (iPhone and iPad, as Xcode's one setting for both),
    /// `macos`, `watchos`, `tvos`, `visionos`.
    public var majors: [String: Int]

    public init(majors: [String: Int]) { self.majors = majors }

    /// The platform keys a pipeline may name.
    public static let platforms = ["ios", "macos", "watchos", "tvos", "visionos"]

    /// The key of `platform`'s setting; nil for Android (its floor is the API level, not this).
    public static func key(of platform: DeviceClass.Platform) -> String? {
        switch platform {
        case .iOS, .iPadOS: "ios"
        case .macOS: "macos"
        case .watchOS: "watchos"
        case .tvOS: "tvos"
        case .visionOS: "visionos"
        case .android: nil
        }
    }

    /// How Apple writes the platform of `key` (`iOS`, `watchOS`).
    public static func displayName(of key: String) -> String {
        ["ios": "iOS", "macos": "macOS", "watchos": "watchOS", "tvos": "tvOS", "visionos": "visionOS"][key] ?? key
    }

    /// The major version `device` needs, when this target names its platform.
    public func minimum(for device: DeviceClass) -> Int? {
        Self.key(of: device.platform).flatMap { majors[$0] }
    }

    /// Whether `device` can install the app.
    public func admits(_ device: DeviceClass) -> Bool {
        minimum(for: device).map { device.runs(osAtLeast: $0) } ?? true
    }

    /// The major version of `text` (`16`, `16.4`, `17.0.1`); nil when it is not a version.
    public static func major(of text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]), major > 0, major < 100 else { return nil }
        return major
    }
}
