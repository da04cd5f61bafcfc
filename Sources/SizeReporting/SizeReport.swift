import Delivery
import TesseraCore

/// The size report of one build, and its changes against a previous one: what `tessera report`
/// writes as text (Xcode's App Thinning Size Report layout) and Markdown, and what budgets check.
public struct SizeReport: Sendable, Codable, Equatable {
    public var pipeline: String
    public var devices: [DeviceSizes]
    /// Set when the report was made against a previous build.
    public var changes: SizeChanges?
    /// What updating from the previous build costs each device class (`UpdateCosts`); set, with
    /// `changes`, by whoever knows the two manifests' exact bytes and the build's update index.
    public var update: UpdateCosts?

    public init(pipeline: String, devices: [DeviceSizes], changes: SizeChanges? = nil, update: UpdateCosts? = nil) {
        self.pipeline = pipeline
        self.devices = devices
        self.changes = changes
        self.update = update
    }

    /// Measures `manifest`: for each device class, its bundles by pack, and its assets' files
    /// found in those bundles. `previous`, when given, is diffed in (`SizeChanges`).
    /// The `pack` of an asset that stays in the app (`AssetSize.pack`).
    public static let appPack = "app"

    public static func make(_ manifest: Manifest, previous: Manifest? = nil) -> SizeReport {
        let packs = Dictionary(manifest.packs.map { ($0.id, $0) }) { first, _ in first }
        let owners = BundleEntryFiles(manifest)
        var devices: [DeviceSizes] = []
        for device in manifest.deviceClasses {
            var sizes = DeviceSizes(device: device.id, name: device.name, install: ByteTotals(), onDemand: ByteTotals(),
                                    packs: [], assets: [])
            var assets: [String: AssetSize] = [:]
            for bundle in manifest.bundles where bundle.device == device.id {
                let pack = packs[bundle.pack]
                let category = pack?.category ?? .onDemand
                let size = ByteTotals(bytes: bundle.bytes, unpacked: bundle.uncompressedSize)
                sizes.packs.append(PackSize(pack: bundle.pack, tags: pack?.tags ?? [], category: category, size: size))
                if category == .initialInstall { sizes.install = sizes.install + size } else {
                    sizes.onDemand = sizes.onDemand + size
                }
                for entry in bundle.entries {
                    guard let owner = owners[entry: entry] else { continue }
                    assets[owner.asset, default: AssetSize(asset: owner.asset, bytes: 0, files: [], pack: bundle.pack)]
                        .bytes += owner.bytes
                    assets[owner.asset]!.files.append(owner.path)
                }
            }
            // What stays in the app is installed with it, as the App Store thins it for this device.
            if let share = manifest.appShares?.first(where: { $0.device == device.id }) {
                sizes.app = ByteTotals(bytes: share.bytes, unpacked: share.bytes)
                sizes.install = sizes.install + sizes.app
                for asset in share.assets {
                    assets["\u{0}app\u{0}" + asset.asset] = AssetSize(asset: asset.asset, bytes: asset.bytes, files: asset.files,
                                                                   pack: SizeReport.appPack)
                }
            }
            // Install packs first, then by tags.
            sizes.packs.sort { ($0.category == .initialInstall ? 0 : 1, $0.tags.joined(separator: ","), $0.pack)
                < ($1.category == .initialInstall ? 0 : 1, $1.tags.joined(separator: ","), $1.pack) }
            sizes.assets = assets.values.map { var asset = $0; asset.files.sort(); return asset }
                .sorted { ($0.bytes, $1.asset) > ($1.bytes, $0.asset) }
            devices.append(sizes)
        }
        var report = SizeReport(pipeline: manifest.pipeline, devices: devices)
        if let previous { report.changes = SizeChanges(from: SizeReport.make(previous), to: report, previous: previous, current: manifest) }
        return report
    }
}
