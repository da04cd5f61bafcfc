import Delivery
import TesseraCore

/// Apple's On-Demand Resources manifests, written only with `pack: apple-odr: true`: ODR is
/// deprecated (`NSBundleResourceRequest`, iOS 9.0–27.0; App Store Connect deprecates it in iOS 27)
/// and `NSBundleResourceRequest` never reads Tessera's bundles, so these describe the packs for
/// tools that still consume the format. Managed asset packs (`ManagedAssetPackFiles`) replace them.
///
/// - `OnDemandResources.plist`: `NSBundleResourceRequestTags` (tag → the packs holding it) and
///   `NSBundleResourceRequestAssetPacks` (pack → its entries).
/// - `apple/<device>/AssetPackManifest.plist`: `resources[]` with `URL`, `bundleKey`,
///   `isStreamable`, `uncompressedSize`, `downloadPriority`, and `primaryContentHash`. Where Apple
///   puts a modification time, Tessera puts the bundle's SHA-256 (`strategy: sha256`): builds are
///   reproducible, so a time would be meaningless.
public struct OnDemandResourcesFiles: Sendable {
    public let manifest: Manifest

    public init(manifest: Manifest) {
        self.manifest = manifest
    }

    private var packs: [PackEntry] { manifest.packs }
    private var appleDevices: [DeviceClass] { manifest.deviceClasses.filter { $0.platform != .android } }

    /// The build warning that says what these files are.
    public static let deprecation = "OnDemandResources.plist and AssetPackManifest.plist are written because "
        + "`apple-odr: true`: On-Demand Resources are deprecated (iOS 27) and NSBundleResourceRequest does not read "
        + "Tessera bundles; ship managed asset packs (apple/asset-packs/) instead"

    /// The files `write(into:)` writes, relative to the folder.
    public var fileNames: [String] {
        ["OnDemandResources.plist"] + appleDevices.map { "apple/\($0.id)/AssetPackManifest.plist" }
    }

    /// Writes both kinds under `folder`, each atomically.

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
        for device in appleDevices {
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
        }
    }
}
