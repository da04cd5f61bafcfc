import Delivery
import TesseraCore

/// How Tessera's packs become Apple's managed asset packs (Background Assets, OS 26+), which have
/// no device-trait targeting: an essential or prefetch pack reaches every device of its platforms.
public enum ApplePackIDs: String, Sendable, Codable, CaseIterable {
    /// One pack ID per distinct bundle (a pack's files for the device classes that share them):
    /// each device downloads only its own variants, through the generated `shouldDownload(_:)`
    /// filter the app compiles into its downloader extension (`TesseraAssetPacks.swift`).
    case perDeviceGroup = "per-device-group"
    /// One pack ID per Tessera pack, holding every device class's variants: no filter needed,
    /// but each device downloads every scale's files.
    case universal
}

/// One managed asset pack: its ID, when it downloads, for which platforms, and its files (paths
/// relative to the build's output folder, the staging root `ba-package` runs from).
public struct ManagedAssetPack: Sendable, Equatable {
    public var id: String
    /// The Tessera pack it comes from.
    public var pack: String
    public var tags: [String]
    public var category: PackCategory
    /// Apple's platform names: `iOS` (iPhone and iPad), `macOS`, `tvOS`, `visionOS`.
    public var platforms: [String]
    /// The device classes it was made for.
    public var devices: [String]
    public var files: [String]
    /// The Tessera bundle holding exactly its files (per device group only).
    public var bundle: BundleEntry?
}

/// Which managed asset packs a build makes (`docs/apple-asset-packs.md`).
public struct ManagedAssetPackPlan: Sendable {
    /// Apple's limit of asset pack IDs per app, shared across its platforms.
    public static let idLimit = 100

    public var packs: [ManagedAssetPack]
    /// Device classes left out (watchOS has no managed asset packs), as warnings.
    public var warnings: [String]

    /// The plan for `manifest`'s packs and bundles. Throws when more than 100 IDs would be made.
    public init(_ manifest: Manifest, ids mode: ApplePackIDs) throws(TesseraError) {
        let apple = manifest.deviceClasses.filter { Self.platformName($0.platform) != nil }
        let devices = Dictionary(apple.map { ($0.id, $0) }) { first, _ in first }
        let watches = manifest.deviceClasses.filter { $0.platform == .watchOS }.map(\.id)
        warnings = watches.isEmpty ? [] : ["watchOS has no managed asset packs: \(watches.joined(separator: ", ")) "
            + "\(watches.count == 1 ? "keeps its" : "keep their") Tessera bundles only"]
        let files = BundleEntryFiles(manifest)
        var aliases = UniqueNames()
        var planned: [ManagedAssetPack] = []
        for pack in manifest.packs {
            let bundles = manifest.bundles.filter { $0.pack == pack.id && devices[$0.device] != nil }
            guard !bundles.isEmpty else { continue }
            let alias = aliases.claim(Self.alias(pack.tags))
            // Bundles of one pack with the same contents (sha256) are one group.
            var groups: [ContentHash: [BundleEntry]] = [:]
            for bundle in bundles { groups[bundle.sha256, default: []].append(bundle) }
            switch mode {
            case .universal:
                let members = bundles.compactMap { devices[$0.device] }
                planned.append(ManagedAssetPack(id: alias, pack: pack.id, tags: pack.tags, category: pack.category,
                                                platforms: Self.platforms(members), devices: members.map(\.id).sorted(),
                                                files: Set(bundles.flatMap { files.paths($0.entries) }).sorted(), bundle: nil))
            case .perDeviceGroup:
                var suffixes = UniqueNames()
                let ordered = groups.values.map { $0.sorted { $0.device < $1.device } }.sorted { $0[0].device < $1[0].device }
                for group in ordered {
                    let members = group.compactMap { devices[$0.device] }
                    let id = alias + "." + suffixes.claim(Self.groupName(members))
                    planned.append(ManagedAssetPack(id: id, pack: pack.id, tags: pack.tags, category: pack.category,
                                                    platforms: Self.platforms(members), devices: members.map(\.id),
                                                    files: files.paths(group[0].entries).sorted(), bundle: group[0]))
                }
            }
        }
        guard planned.count <= Self.idLimit else {
            throw TesseraError(.configuration, origin: .pack, reason: "\(planned.count) managed asset pack IDs "
                + "(\(manifest.packs.count) packs × their device groups) exceed Apple's \(Self.idLimit) per app; "
                + "set `apple-pack-ids: universal`, or use fewer tag sets or device classes (docs/apple-asset-packs.md)")
        }
        packs = planned.sorted { $0.id < $1.id }
    }

    /// Apple's name of a platform that has managed asset packs; nil for watchOS and Android.
    static func platformName(_ platform: DeviceClass.Platform) -> String? {
        switch platform {
        case .iOS, .iPadOS: "iOS"
        case .macOS: "macOS"
        case .tvOS: "tvOS"
        case .visionOS: "visionOS"
        case .watchOS, .android: nil
        }
    }

    private static func platforms(_ devices: [DeviceClass]) -> [String] {
        Set(devices.compactMap { platformName($0.platform) }).sorted()
    }

    /// A readable alias: `base` for untagged assets, else the tags (`Blue_Circle`), each reduced
    /// to letters, digits, `-` and `_`.
    static func alias(_ tags: [String]) -> String {
        guard !tags.isEmpty else { return "base" }
        return tags.sorted().map { tag in
            String(tag.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" })
        }.joined(separator: "_")
    }

    /// A device group's name from its idioms and scales: `iphone-3x`, `ipad-iphone-2x`.
    static func groupName(_ devices: [DeviceClass]) -> String {
        let idioms = Set(devices.map(\.idiom)).sorted().joined(separator: "-")
        let scales = Set(devices.map(\.scale)).sorted().map { "\($0)x" }.joined(separator: "-")
        return idioms + "-" + scales
    }
}

/// Names made unique in the order they are claimed: a second `x` is `x-2`.
struct UniqueNames {
    private var used: Set<String> = []

    mutating func claim(_ name: String) -> String {
        var candidate = name, counter = 1
        while used.contains(candidate) {
            counter += 1
            candidate = "\(name)-\(counter)"
        }
        used.insert(candidate)
        return candidate
    }
}
