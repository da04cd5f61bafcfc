import Slicing

/// One target of an app (the app, an extension, its watch app, its Mac app): the part of the
/// input that holds its assets, and the device classes it ships to. A pipeline that names targets
/// slices each target's assets only for its own devices, as Xcode builds each target's catalog
/// into that target's product, so a watch app's icons never land in an iPhone's bundles.
public struct PipelineTarget: Sendable, Hashable, Encodable {
    /// What reports call it (`App`, `Watch`).
    public var name: String
    /// Folders or catalogs under the input folder (`WatchApp/Assets.xcassets`), `/`-separated: a
    /// catalog may be in several targets' lists, as Xcode's target membership allows (a shared
    /// catalog of the app, its widgets and its watch app).
    public var inputs: [String]
    /// Device identifiers (`docs/devices.md`).
    public var devices: [String]
    /// The target's build settings (app icon, alternates, device family, kept sets); nil: the
    /// pipeline's `app:` settings.
    public var settings: AppBuildSettings?

    public init(name: String, inputs: [String], devices: [String], settings: AppBuildSettings? = nil) {
        self.name = name
        self.inputs = inputs
        self.devices = devices
        self.settings = settings
    }

    /// Whether `asset` (read from the build's input folder) is this target's.
    public func holds(_ asset: CatalogAsset) -> Bool {
        // An empty set has no file: its catalog says whose it is.
        guard let file = asset.entries.first?.file ?? asset.contentsFile ?? asset.catalog.map({ $0 + "/" }) else { return false }
        return inputs.contains { file.hasPrefix($0 + "/") }
    }

    /// Whether `asset` is read from `input`, one of this target's inputs.
    public static func asset(_ asset: CatalogAsset, isIn input: String) -> Bool {
        PipelineTarget(name: "", inputs: [input], devices: []).holds(asset)
    }
}

/// Which assets each device class of a build selects from: with targets, a target's devices see
/// its assets; assets in no target go to the `slice` stage's devices.
public struct TargetMembership: Sendable {
    public let targets: [PipelineTarget]
    /// The `slice` stage's own devices.
    public let sharedDevices: Set<String>

    /// Whether `device` ships `asset`.
    public func device(_ device: String, ships asset: CatalogAsset) -> Bool {
        let owners = targets.filter { $0.holds(asset) }
        if owners.isEmpty { return targets.isEmpty || sharedDevices.contains(device) }
        return owners.contains { $0.devices.contains(device) }
    }

    /// The build settings that apply to `asset`: its target's, else the pipeline's.
    public func settings(for asset: CatalogAsset, default app: AppBuildSettings) -> AppBuildSettings {
        targets.first { $0.holds(asset) }?.settings ?? app
    }

    /// The device family `device` is sliced under for `asset` (the owning target's, else the
    /// pipeline's).
    public func deviceFamily(for asset: CatalogAsset, default app: AppBuildSettings) -> Set<String>? {
        settings(for: asset, default: app).deviceFamily
    }

    /// Every device class the build slices for, in the order first named: the `slice` stage's,
    /// then each target's.
    public static func devices(slice: [String], targets: [PipelineTarget]) -> [String] {
        var seen: Set<String> = []
        return (slice + targets.flatMap(\.devices)).filter { seen.insert($0).inserted }
    }
}
