import TesseraCore

/// Where an asset ships: in an on-demand pack (Tessera's bundles, Apple's and Play's asset
/// packs), in the app itself (compiled by Xcode or Gradle from the `app/` output), or nowhere.
///
/// What the OS reads before the app runs can never wait for a pack: app icons (the primary and the
/// alternates the target names), watch complications, and on Android launcher icons (`mipmap-*`)
/// and XML drawables, which are resources the system resolves by folder, not files an asset
/// pack can carry. Sets the pipeline lists under `keep-in-app` join them. An app icon set that is
/// neither the primary icon nor an alternate is not compiled by Xcode, so it ships nowhere — and
/// the build says so (`docs/catalog-conformance.md`).
public enum AppPlacement: Sendable, Hashable {
    case pack
    /// Kept in the app; the reason says which rule keeps it.
    case app(reason: String)
    /// Not shipped at all; the reason is the build's warning.
    case nowhere(reason: String)

    /// The placement of `asset` under `settings`, as `pack.untagged: pack` places it (untagged
    /// sets in packs); `of(_:settings:untaggedStayInApp:)` says why and what it overrode.
    public static func of(_ asset: CatalogAsset, settings: AppBuildSettings) -> AppPlacement {
        decide(asset, settings: settings, untaggedStayInApp: false).placement
    }

    /// Where `asset` ships, and a warning when a rule overrode what the catalog or the pipeline
    /// asked for. The order is the rules' precedence:
    /// 1. what the OS reads before any pack can download stays in the app, tagged or not (its tags
    ///    cannot make it a download: the warning says they are ignored);
    /// 2. a tagged set goes to its pack, even when a `keep-in-app` glob names it (the warning
    ///    says so: a tag is the set's own word, a glob a wide one; `keep-in-app: ["**"]` kept
    ///    tagged sets silently before);
    /// 3. an untagged set stays in the app when `keep-in-app` names it, or when untagged sets stay
    ///    in the app (`pack.untagged: app`, Xcode's and Play's split); else it goes to the base pack.
    public static func decide(_ asset: CatalogAsset, settings: AppBuildSettings,
                              untaggedStayInApp: Bool) -> PlacementDecision {
        if let osRead = readByTheSystem(asset, settings: settings) {
            guard case .app = osRead, !asset.tags.isEmpty else { return PlacementDecision(placement: osRead, readByTheSystem: true) }
            return PlacementDecision(placement: osRead, readByTheSystem: true, warning: "tagged \(asset.tags.joined(separator: ", ")), but the OS reads it before any pack can download: it stays in the app and its tags are ignored")
        }
        let glob = settings.keepInApp.first { Glob($0).matches(asset.name.name) }
        if !asset.tags.isEmpty {
            guard let glob else { return PlacementDecision(placement: .pack) }
            return PlacementDecision(placement: .pack, warning: "tagged \(asset.tags.joined(separator: ", ")) and named by keep-in-app (\(glob)): tagged sets go to their packs, so it is downloaded; untag it to keep it in the app, or narrow the glob")
        }
        if let glob { return PlacementDecision(placement: .app(reason: "kept in the app by the pipeline (keep-in-app: \(glob))")) }
        if untaggedStayInApp {
            return PlacementDecision(placement: .app(reason: "untagged: it stays in the app, as Xcode and Gradle keep untagged sets (pack.untagged: app)"))
        }
        return PlacementDecision(placement: .pack)
    }

    /// The placement of what the OS itself reads (icons, complications, the accent colour, launch
    /// screens, Android resources no pack can carry); nil for anything else.
    private static func readByTheSystem(_ asset: CatalogAsset, settings: AppBuildSettings) -> AppPlacement? {
        let files = asset.entries.map(\.file) + (asset.contentsFile.map { [$0] } ?? [])
        if files.contains(where: { $0.split(separator: "/").contains { $0.hasSuffix(".complicationset") } }) {
            return .app(reason: "a watch complication: the watch face draws it without running the app")
        }
        if asset.entries.contains(where: { $0.file.split(separator: "/").contains { $0.hasSuffix(".iconset") } }) {
            return .app(reason: "a macOS .iconset: the app's icon file, read by Finder and the Dock")
        }
        // tvOS's app icon is a brand-assets folder of image stacks; visionOS's a solid image
        // stack. Their layers are read as images, so the folder's name decides.
        if let brand = container(of: asset, ending: ".brandassets") {
            return placement(ofIconNamed: brand, asset: asset, settings: settings)
        }
        // A solid image stack is only ever a visionOS app icon (Xcode's "visionOS App Icon"), and
        // Xcode compiles every one into the app, the primary or not: none is a download. A tvOS
        // image stack may be an in-app parallax image, so only the icon named so stays.
        if let stack = container(of: asset, ending: ".solidimagestack") {
            if case .app(let reason) = placement(ofIconNamed: stack, asset: asset, settings: settings) { return .app(reason: reason) }
            return .app(reason: "a layer of the visionOS app icon stack '\(stack)' (solidimagestack): Xcode compiles it into the app like the primary icon's, so it is never downloaded")
        }
        if let stack = container(of: asset, ending: ".imagestack"),
           case .app(let reason) = placement(ofIconNamed: stack, asset: asset, settings: settings) {
            return .app(reason: reason)
        }
        if asset.kind == .appIcon || asset.kind == .iconComposer { return placement(ofIcon: asset, settings: settings) }
        if !asset.entries.isEmpty, asset.entries.allSatisfy({ AndroidResourceFolder.isLauncherIcon($0.file) }) {
            return .app(reason: "an Android launcher icon (mipmap): a resource of the base module at every density")
        }
        if asset.kind == .data, !asset.entries.isEmpty, asset.entries.allSatisfy({ AndroidResourceFolder.holds($0.file) }) {
            return .app(reason: "an Android XML drawable: a resource the system resolves by folder, which no asset pack can carry")
        }
        // Compared by the set's own name without regard to case, as Xcode on a Mac's
        // case-insensitive disk finds it.
        let setName = (asset.name.name.split(separator: "/").last.map(String.init) ?? asset.name.name).lowercased()
        if asset.kind == .color, setName == settings.accentColor.lowercased() {
            return .app(reason: "the global accent colour (accent-color: \(settings.accentColor), ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME): UIKit, AppKit and SwiftUI read it from the app at launch")
        }
        if asset.kind == .color, setName == settings.widgetBackground.lowercased() {
            return .app(reason: "the widget background colour (widget-background: \(settings.widgetBackground), ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME): WidgetKit reads it from the extension")
        }
        if let name = settings.launchScreen.first(where: { $0.lowercased() == setName || $0 == asset.name.name }) {
            return .app(reason: "drawn by the launch screen (launch-screen: \(name), UILaunchScreen): shown before the app runs")
        }
        return nil
    }

    /// The stem of the first folder ending in `suffix` that holds `asset`'s files.
    private static func container(of asset: CatalogAsset, ending suffix: String) -> String? {
        guard let file = asset.entries.first?.file else { return nil }
        return file.split(separator: "/").first { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
    }

    private static func placement(ofIcon asset: CatalogAsset, settings: AppBuildSettings) -> AppPlacement {
        let name = asset.name.name
        return placement(ofIconNamed: String(name.split(separator: "/").last ?? Substring(name)), asset: asset, settings: settings)
    }

    private static func placement(ofIconNamed setName: String, asset: CatalogAsset, settings: AppBuildSettings) -> AppPlacement {
        let name = asset.name.name
        // Compared without regard to case, as Xcode on a Mac's case-insensitive disk finds them
        // (real apps list `AppIcon-Yellow` for a set named `AppIcon-yellow`).
        let names = [name.lowercased(), setName.lowercased()]
        if names.contains(settings.appIcon.lowercased()) {
            return .app(reason: "the primary app icon (app-icon: \(settings.appIcon)): the home screen shows it before any pack can download")
        }
        if settings.includeAllAppIcons {
            return .app(reason: "an alternate app icon (include-all-app-icons)")
        }
        if settings.alternateAppIcons.contains(where: { names.contains($0.lowercased()) }) {
            return .app(reason: "an alternate app icon (alternate-app-icons)")
        }
        return .nowhere(reason: "app icon set '\(name)' is neither the app icon (app-icon: \(settings.appIcon)) nor an alternate (alternate-app-icons, include-all-app-icons): Xcode does not compile it, so no device gets it")
    }

    public var isInApp: Bool {
        if case .app = self { return true }
        return false
    }
}

/// Where an asset ships, and what the build warns about its placement.
public struct PlacementDecision: Sendable, Hashable {
    public var placement: AppPlacement
    /// Whether the OS itself reads it (icons, complications, the accent colour, launch screens):
    /// such sets go to the app exactly as written, never rewritten.
    public var readByTheSystem: Bool
    /// Why a rule overrode what the catalog or the pipeline asked for (a tag, a `keep-in-app` glob).
    public var warning: String?

    public init(placement: AppPlacement, readByTheSystem: Bool = false, warning: String? = nil) {
        self.placement = placement
        self.readByTheSystem = readByTheSystem
        self.warning = warning
    }
}
