import Delivery
import TesseraCore

/// One Play Asset Delivery asset pack: a Gradle module (`com.android.asset-pack`) holding one
/// Tessera pack's files for every Android device class of the build.
public struct PlayAssetPack: Sendable, Equatable {
    /// Play's delivery modes.
    public enum Delivery: String, Sendable {
        case installTime = "install-time", fastFollow = "fast-follow", onDemand = "on-demand"

        /// Initial-install packs are installed with the app; prefetch packs download right
        /// after it (fast-follow); the rest when the app asks.
        init(_ category: PackCategory) {
            switch category {
            case .initialInstall: self = .installTime
            case .prefetch: self = .fastFollow
            case .onDemand: self = .onDemand
            }
        }
    }

    /// A file of the pack: where it is under the output folder, and its path under the module's
    /// `src/main/assets/`, which is what `AssetPackLocation.assetsPath()` holds on the device.
    public struct File: Sendable, Equatable {
        public var source: String
        public var asset: String
        public var bytes: Int
    }

    /// The module and pack name: letters, digits and `_`, starting with a letter (`tessera_base`,
    /// `tessera_blue_star`).
    public var name: String
    public var pack: String
    public var tags: [String]
    public var delivery: Delivery
    public var files: [File]
    public var bytes: Int { files.reduce(0) { $0 + $1.bytes } }
}

/// The asset packs of a build's Android device classes, and Play's limits checked on them
/// (`docs/play-asset-delivery.md`).
public struct PlayAssetPackPlan: Sendable {
    /// Play's limits: one asset pack, all install-time packs, all fast-follow and on-demand packs.
    public static let packLimit = 1_500_000_000
    public static let installTimeLimit = 4_000_000_000
    public static let deferredLimit = 4_000_000_000

    public var packs: [PlayAssetPack]
    /// The Play device groups the packs' folders target (empty: none).
    public var deviceGroups: [String]

    /// Every Android class's files of each pack, one copy of each (the density folders of a
    /// Tessera build keep files of different densities apart). With `deviceGroups` (Play device
    /// group → the device classes whose files it gets), each group's files go under
    /// `tessera#group_<name>/` and the files of classes in no group under `tessera#group_other/`
    /// (every class's, when all are in groups), Play's default for devices that match no group.
    /// Throws on a limit Play enforces, naming the pack or the delivery mode and the sizes.
    public init(_ manifest: Manifest, deviceGroups: [String: [String]] = [:]) throws(TesseraError) {
        let android = Set(manifest.deviceClasses.filter { $0.platform == .android }.map(\.id))
        for (group, devices) in deviceGroups.sorted(by: { $0.key < $1.key }) {
            for device in devices where !android.contains(device) {
                throw TesseraError(.configuration, origin: .pack,
                                   reason: "play-device-groups: the group '\(group)' names '\(device)', which is not an Android device class of this build")
            }
        }
        let files = BundleEntryFiles(manifest)
        var names = UniqueNames()
        var planned: [PlayAssetPack] = []
        self.deviceGroups = deviceGroups.keys.sorted()
        let grouped = Set(deviceGroups.values.flatMap { $0 })
        // Folder under the pack's assets → the device classes whose files it holds.
        var folders: [(folder: String, devices: Set<String>)] = [("tessera", android)]
        if !deviceGroups.isEmpty {
            folders = deviceGroups.sorted { $0.key < $1.key }.map { ("tessera#group_\($0.key)", Set($0.value)) }
            let ungrouped = android.subtracting(grouped)
            folders.append(("tessera#group_other", ungrouped.isEmpty ? android : ungrouped))
        }
        for pack in manifest.packs {
            var packFiles: [PlayAssetPack.File] = []
            for (folder, devices) in folders {
                let found = Dictionary(manifest.bundles.filter { $0.pack == pack.id && devices.contains($0.device) }
                    .flatMap { $0.entries.compactMap { files[entry: $0] } }.map { ($0.path, $0.bytes) }) { first, _ in first }
                packFiles += found.keys.sorted().map {
                    PlayAssetPack.File(source: $0, asset: Self.assetPath($0, folder: folder), bytes: found[$0]!)
                }
            }
            guard !packFiles.isEmpty else { continue }
            planned.append(PlayAssetPack(name: names.claim(Self.name(pack.tags)), pack: pack.id, tags: pack.tags,
                                         delivery: .init(pack.category), files: packFiles))
        }
        packs = planned.sorted { $0.name < $1.name }
        try check()
    }

    private func check() throws(TesseraError) {
        for pack in packs where pack.bytes > Self.packLimit {
            throw TesseraError(.limitExceeded, file: pack.name, origin: .pack,
                               reason: "the asset pack '\(pack.name)' is \(ByteCount(bytes: pack.bytes)), over Google Play's "
                                   + "\(ByteCount(bytes: Self.packLimit)) per pack: split its tags")
        }
        let installTime = packs.filter { $0.delivery == .installTime }.reduce(0) { $0 + $1.bytes }
        if installTime > Self.installTimeLimit {
            throw TesseraError(.limitExceeded, origin: .pack, reason: "install-time asset packs total \(ByteCount(bytes: installTime)), "
                + "over Google Play's \(ByteCount(bytes: Self.installTimeLimit))")
        }
        let deferred = packs.filter { $0.delivery != .installTime }.reduce(0) { $0 + $1.bytes }
        if deferred > Self.deferredLimit {
            throw TesseraError(.limitExceeded, origin: .pack, reason: "fast-follow and on-demand asset packs total "
                + "\(ByteCount(bytes: deferred)), over Google Play's \(ByteCount(bytes: Self.deferredLimit))")
        }
    }

    /// `tessera_` and the tags, lowercased, anything but letters and digits as `_`.
    static func name(_ tags: [String]) -> String {
        let words = tags.isEmpty ? ["base"] : tags.sorted()
        return "tessera_" + words.map { tag in
            String(tag.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        }.joined(separator: "_")
    }

    /// `variants/drawable-xxhdpi/a.png` → `tessera/drawable-xxhdpi/a.png`: one folder of Tessera's
    /// own under the pack's assets, so an app's other assets never collide with it (Play strips a
    /// `#group_` suffix: the app reads `tessera/…` either way).
    static func assetPath(_ source: String, folder: String = "tessera") -> String {
        let trimmed = source.hasPrefix("variants/") ? String(source.dropFirst("variants/".count)) : source
        return folder + "/" + trimmed
    }
}
