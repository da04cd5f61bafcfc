import Delivery
import TesseraCore

/// Apple's manifest formats, from the same model as `manifest.json`.
///
/// - `OnDemandResources.plist`: `NSBundleResourceRequestTags` (tag → the packs holding it) and
///   `NSBundleResourceRequestAssetPacks` (pack → its entries).
/// - `apple/<device>/AssetPackManifest.plist`: `resources[]` with `URL`, `bundleKey`,
///   `isStreamable`, `uncompressedSize`, `downloadPriority`, and `primaryContentHash`. Where Apple
///   puts a modification time, Tessera puts the bundle's SHA-256 (`strategy: sha256`): builds are
///   reproducible, so a time would be meaningless.
/// - `background-assets/<device>.json`: Background Assets packs (`assetPackID`, `downloadPolicy`
///   essential/prefetch/onDemand, `fileSelectors`, `platforms`).
public struct AppleManifests: Sendable {
    public let manifest: Manifest

    public init(manifest: Manifest) {
        self.manifest = manifest
    }

    private var packs: [PackEntry] { manifest.packs }

    /// Writes all three kinds under `folder`, each atomically.
    /// The files `write(into:)` writes, relative to the folder.
    public var fileNames: [String] {
        ["OnDemandResources.plist"] + manifest.deviceClasses.flatMap {
            ["apple/\($0.id)/AssetPackManifest.plist", "background-assets/\($0.id).json"]
        }
    }

    public func write(into folder: String) throws(TesseraError) {
        var tags: [String: PropertyList] = [:]
        for tag in Set(packs.flatMap(\.tags)).sorted() {
            tags[tag] = .dictionary(["NSAssetPacks": .array(packs.filter { $0.tags.contains(tag) }.map { .string($0.id) })])
        }
        var packEntries: [String: PropertyList] = [:]
        for pack in packs {
            let names = Set(manifest.bundles.filter { $0.pack == pack.id }.flatMap(\.entries)).sorted()
            packEntries[pack.id] = .array(names.map { .string($0) })
        }
        let resources = PropertyList.dictionary(["NSBundleResourceRequestTags": .dictionary(tags),
                                                 "NSBundleResourceRequestAssetPacks": .dictionary(packEntries)])
        try AtomicFile.write(Array(resources.xml().utf8), to: "\(folder)/OnDemandResources.plist")
        for device in manifest.deviceClasses {
            let bundles = manifest.bundles.filter { $0.device == device.id }
            let items: [PropertyList] = bundles.map { bundle in
                let pack = packs.first { $0.id == bundle.pack }
                return .dictionary([
                    "URL": .string(bundle.url), "bundleKey": .string(bundle.pack), "isStreamable": .bool(true),
                    "uncompressedSize": .integer(bundle.uncompressedSize),
                    "downloadPriority": .real(pack?.priority ?? 0),
                    "primaryContentHash": .dictionary(["hash": .string(bundle.sha256.hex), "strategy": .string("sha256")]),
                ])
            }
            try AtomicFile.write(Array(PropertyList.dictionary(["resources": .array(items)]).xml().utf8),
                                 to: "\(folder)/apple/\(device.id)/AssetPackManifest.plist")
            try writeBackgroundAssets(device: device, bundles: bundles, folder: folder)
        }
    }

    private func writeBackgroundAssets(device: DeviceClass, bundles: [BundleEntry], folder: String) throws(TesseraError) {
        struct AssetPack: Encodable {
            struct Selector: Encodable { let file: String }
            let assetPackID: String
            let downloadPolicy: String
            let fileSelectors: [Selector]
            let platforms: [String]
        }
        let platform = switch device.platform {
        case .iOS: "iOS"
        case .iPadOS: "iPadOS"
        case .macOS: "macOS"
        case .tvOS: "tvOS"
        case .watchOS: "watchOS"
        case .visionOS: "visionOS"
        case .android: "android"
        }
        let packsOut = bundles.map { bundle -> AssetPack in
            let policy = switch packs.first(where: { $0.id == bundle.pack })?.category {
            case .initialInstall: "essential"
            case .prefetch: "prefetch"
            case .onDemand, nil: "onDemand"
            }
            return AssetPack(assetPackID: bundle.pack, downloadPolicy: policy,
                             fileSelectors: bundle.entries.map { AssetPack.Selector(file: $0) }, platforms: [platform])
        }
        try AtomicFile.write(try StableJSON.encode(["assetPacks": packsOut]),
                             to: "\(folder)/background-assets/\(device.id).json")
    }
}
