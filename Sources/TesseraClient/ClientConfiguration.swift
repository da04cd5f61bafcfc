import Delivery
import Foundation

/// Where a client finds builds, keeps bundles, and how hard it tries.
public struct ClientConfiguration: Sendable {
    /// The folder a build was published to (it holds `manifest.json` and `bundles/`): a static
    /// host of a build folder or a `tessera serve` channel.
    public var server: URL
    /// The manifest's name inside `server`.
    public var manifestName: String
    /// Where bundles, the last verified manifest and the store's state live.
    public var storeFolder: URL
    /// The device bundles are chosen for; `DeviceClass.current` on Apple devices.
    public var device: String
    /// Downloads running at once.
    public var maxConcurrentDownloads: Int
    /// Attempts per bundle (the first included) before a failure is reported.
    public var attemptsPerBundle: Int
    /// How long one request may wait for bytes before it counts as a failed attempt.
    public var requestTimeout: TimeInterval
    /// The most one whole answer may take, however steadily its bytes come: a manifest or a
    /// signature dripped a byte at a time fails at it (and the kept manifest is used, as when
    /// offline). A bundle attempt gets this or the time its remaining bytes take at
    /// `minimumBytesPerSecond`, whichever is longer, and one that runs out counts as a failed
    /// attempt even though it made progress.
    public var responseDeadline: TimeInterval
    /// The slowest transfer of a bundle the client waits out (16 KiB/s by default).
    public var minimumBytesPerSecond: Int
    /// Bytes of the store's disk the client leaves free for the app and the rest of the device:
    /// a bundle that would eat into them is refused before a byte of it is fetched. 0 (the
    /// default) lets bundles fill the disk to the last byte the file system gives an
    /// unprivileged writer.
    public var reservedDiskBytes: Int
    /// How bundle URLs are made: from `server` and each bundle's `path` (the default: works for
    /// any copy of the build folder), or the manifest's absolute `url`s (the pipeline's `base-url`).
    public var bundleLocation: BundleLocation
    /// The root of trust the app pins (`docs/security.md`). When set, every manifest must come with
    /// a signature (the manifest's URL + `.sig`) that chains to it, for `channel`, not older than the
    /// last one accepted and not expired; otherwise it is refused. Nil: manifests are not signed.
    public var trustedRoot: TrustedRoot?
    /// The channel signed manifests must be for (checked only with a `trustedRoot`): the name
    /// given to `tessera sign --channel` or `tessera publish --channel`.
    public var channel: String

    /// Whether a refresh asks for `updates.json` first (`docs/updates.md`): an unchanged build
    /// then costs a few hundred bytes and a changed one a patch or the compressed manifest;
    /// without one on the host (a 404) the manifest is fetched as before. Off, the manifest is
    /// always fetched whole (with `If-None-Match`).
    public var usesUpdateIndex: Bool
    /// An installed bundle whose next build's entries are mostly new is fetched whole: when the
    /// objects it lacks (their bytes plus their requests) reach this share of the `.tsb`
    /// (0.7 by default; `docs/updates.md` says why), rather than object by object.
    public var wholeBundleShare: Double

    public enum BundleLocation: Sendable {
        /// `server` + the bundle's `path`: a static host of a build folder.
        case besideManifest
        /// The manifest's absolute `url`s.
        case manifestURLs
        /// `server/b/<sha256>.tsb`: `tessera serve`'s content-addressed bundle URLs.
        case contentAddressed
    }

    /// A `tessera serve` channel: the manifest is the channel's current build
    /// (`/v1/channels/NAME/manifest`), bundles come from `/b/<sha256>.tsb`.
    public static func channel(_ name: String, on server: URL, storeFolder: URL, device: String,
                               maxConcurrentDownloads: Int = 4, attemptsPerBundle: Int = 3,
                               requestTimeout: TimeInterval = 30, trustedRoot: TrustedRoot? = nil) -> ClientConfiguration {
        ClientConfiguration(server: server, storeFolder: storeFolder, device: device,
                            manifestName: "v1/channels/\(name)/manifest", maxConcurrentDownloads: maxConcurrentDownloads,
                            attemptsPerBundle: attemptsPerBundle, requestTimeout: requestTimeout,
                            bundleLocation: .contentAddressed, trustedRoot: trustedRoot, channel: name)
    }

    public init(server: URL, storeFolder: URL, device: String, manifestName: String = "manifest.json",
                maxConcurrentDownloads: Int = 4, attemptsPerBundle: Int = 3, requestTimeout: TimeInterval = 30,
                bundleLocation: BundleLocation = .besideManifest, trustedRoot: TrustedRoot? = nil,
                channel: String = "production", reservedDiskBytes: Int = 0, responseDeadline: TimeInterval = 120,
                minimumBytesPerSecond: Int = 16 << 10, usesUpdateIndex: Bool = true,
                wholeBundleShare: Double = BundleUpdatePlan.defaultWholeBundleShare) {
        self.usesUpdateIndex = usesUpdateIndex
        self.wholeBundleShare = min(1, max(0, wholeBundleShare))
        self.reservedDiskBytes = max(0, reservedDiskBytes)
        self.responseDeadline = max(1, responseDeadline)
        self.minimumBytesPerSecond = max(1, minimumBytesPerSecond)
        self.trustedRoot = trustedRoot
        self.channel = channel
        self.server = server
        self.manifestName = manifestName
        self.storeFolder = storeFolder
        self.device = device
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.attemptsPerBundle = max(1, attemptsPerBundle)
        self.requestTimeout = requestTimeout
        self.bundleLocation = bundleLocation
    }

    var manifestURL: URL {
        manifestName.split(separator: "/").reduce(server) { $0.appendingPathComponent(String($1)) }
    }

    /// `objects/<sha256>` beside the manifest: a build folder's on a static host, and on
    /// `tessera serve` the channel's (`/v1/channels/NAME/objects/<sha256>`).
    func url(of object: TransferObject) -> URL {
        object.path.split(separator: "/").reduce(manifestURL.deletingLastPathComponent()) { $0.appendingPathComponent(String($1)) }
    }

    func url(of bundle: BundleEntry) -> URL {
        switch bundleLocation {
        case .besideManifest:
            bundle.path.split(separator: "/").reduce(server) { $0.appendingPathComponent(String($1)) }
        case .manifestURLs:
            URL(string: bundle.url) ?? server.appendingPathComponent(bundle.path)
        case .contentAddressed:
            server.appendingPathComponent("b").appendingPathComponent("\(bundle.sha256.hex).tsb")
        }
    }
}
