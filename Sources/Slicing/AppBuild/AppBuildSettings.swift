/// The build settings of one app target that decide what Xcode compiles into the app itself,
/// under the names Xcode gives them (`docs/pipeline-format.md#app`).
public struct AppBuildSettings: Sendable, Hashable, Codable {
    /// `ASSETCATALOG_COMPILER_APPICON_NAME`: the primary app icon set (Xcode's templates: `AppIcon`).
    public var appIcon: String = "AppIcon"
    /// `ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES`: the alternate icons the app may switch to.
    public var alternateAppIcons: [String] = []
    /// `ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS`: every app icon set is an alternate.
    public var includeAllAppIcons: Bool = false
    /// `TARGETED_DEVICE_FAMILY` as idioms (`iphone`, `ipad`); nil: every idiom of the target's
    /// devices (Xcode's template for an iOS app is `1,2`, iPhone and iPad).
    public var deviceFamily: Set<String>?
    /// Asset names (globs) the app target compiles itself besides its icons: sets a launch screen,
    /// a widget or the system shows before any pack can download.
    public var keepInApp: [String] = []
    /// `ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME`: the colour set UIKit, AppKit and SwiftUI
    /// read from the app's own `Assets.car` at launch (Xcode's templates: `AccentColor`).
    public var accentColor: String = "AccentColor"
    /// `ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME`: the colour set WidgetKit reads from
    /// the widget extension's `Assets.car` (Xcode's templates: `WidgetBackground`).
    public var widgetBackground: String = "WidgetBackground"
    /// Sets the launch screen draws (`UILaunchScreen`'s `UIImageName` and `UIColorName`): shown
    /// before the app runs, so before any pack could download.
    public var launchScreen: [String] = []
    /// The `*_DEPLOYMENT_TARGET` settings: devices whose newest OS is older get nothing of the
    /// target. nil: every device (a pipeline that does not say excludes none).
    public var deploymentTarget: DeploymentTarget?

    public init() {}

    /// Xcode's numbers for `TARGETED_DEVICE_FAMILY` and the idioms they stand for.
    public static let deviceFamilyNumbers: [Int: String] = [1: "iphone", 2: "ipad", 3: "tv", 4: "watch", 6: "mac", 7: "vision"]

    /// The idioms a `device-family` value names, from Xcode's numbers (`1,2`) or idiom names; nil
    /// for anything else.
    public static func idioms(parsing values: [String]) -> Set<String>? {
        var idioms: Set<String> = []
        for value in values {
            if let number = Int(value), let idiom = deviceFamilyNumbers[number] {
                idioms.insert(idiom)
            } else if deviceFamilyNumbers.values.contains(value.lowercased()) {
                idioms.insert(value.lowercased())
            } else {
                return nil
            }
        }
        return idioms.isEmpty ? nil : idioms
    }
}
