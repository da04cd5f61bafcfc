import Delivery
import TesseraCore

/// `apple/asset-packs.json`: every managed asset pack of a build in one file, for a server that
/// hosts them itself (`tessera serve` answers it per channel) and for scripts: each pack's ID,
/// policy, platforms, device classes, files, its manifest's path and, per device group, the
/// Tessera bundle that holds exactly its files.
public struct ManagedAssetPackIndex: Codable, Sendable, Equatable {
    public struct Pack: Codable, Sendable, Equatable {
        public var assetPackID: String
        public var tags: [String]
        /// `essential`, `prefetch` or `onDemand`.
        public var downloadPolicy: String
        public var platforms: [String]
        public var devices: [String]
        public var manifest: String
        public var files: [String]
        public var bundle: Bundle?
    }

    /// A Tessera bundle: where to download it, its size and hash.
    public struct Bundle: Codable, Sendable, Equatable {
        public var url: String
        public var bytes: Int
        public var sha256: ContentHash
    }

    public var version = 1
    public var pipeline: String
    public var packIDs: String
    public var assetPacks: [Pack]

    /// The index of `plan`; `bundleURL` gives a bundle's URL (the build's own, or a server's).
    public init(pipeline: String, plan: ManagedAssetPackPlan, mode: ApplePackIDs,
                bundleURL: (BundleEntry) -> String = \.url) {
        self.pipeline = pipeline
        packIDs = mode.rawValue
        assetPacks = plan.packs.map { pack in
            Pack(assetPackID: pack.id, tags: pack.tags, downloadPolicy: ManagedAssetPackManifest.policyName(pack.category),
                 platforms: pack.platforms, devices: pack.devices, manifest: ManagedAssetPackFiles.manifestPath(pack.id),
                 files: pack.files,
                 bundle: pack.bundle.map { Bundle(url: bundleURL($0), bytes: $0.bytes, sha256: $0.sha256) })
        }
    }
}
