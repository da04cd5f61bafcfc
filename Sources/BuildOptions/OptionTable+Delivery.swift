import Foundation
import SizeReporting
import Delivery
import Manifests
import Packing
import TesseraCore

extension OptionTable {
    /// `stages.slice`.
    public enum Slice {
        public static let devices = OptionSpec<[String]>.words(
            .slice, "devices", default: ["iPhone15,2", "iPhone12,1", "iPad12,1"],
            shown: #"["iPhone15,2", "iPhone12,1", "iPad12,1"]"#,
            help: "Device classes to write slices/<id>.json for: identifiers (any case) or names (\"iPhone 15 Pro\").") { ids throws(OptionError) in
                // Read as identifiers once, here: everything after compares identifiers.
                var canonical: [String] = []
                for (index, id) in ids.enumerated() {
                    do throws(TesseraError) {
                        canonical.append(try KnownDevices.device(id).id)
                    } catch {
                        throw OptionError(error.reason, item: index)
                    }
                }
                return canonical
            }

        public static let all: [any DeclaredOption] = [devices]
    }

    /// `stages.pack`; `compress`, `min-saving` and `xz-level` are also `tessera bundle create`'s.
    public enum Pack {
        public static let initialInstall = OptionSpec<[String]>.words(
            .pack, "initial-install", default: [], shown: "[]", help: "Tags whose packs ship with the app.") { $0 }

        public static let prefetchOrder = OptionSpec<[String]>.words(
            .pack, "prefetch-order", default: [], shown: "[]",
            help: "Tags downloaded right after install, in this order.") { tags throws(OptionError) in
                guard Set(tags).count == tags.count else { throw OptionError("a tag is listed twice") }
                return tags
            }

        public static let baseURL = OptionSpec<String>(
            .pack, "base-url", default: "", shown: "", valueName: "url",
            help: "Prefixed to each bundle's path in the manifests.", parser: .text { $0 })

        public static let minSaving = OptionSpec<Double>(
            .pack, "min-saving", default: PayloadCompressor.defaultMinimumSaving,
            shown: String(PayloadCompressor.defaultMinimumSaving), valueName: "fraction",
            help: "Use xz for an entry only when it saves at least this fraction.",
            parser: .text { text throws(OptionError) in
                guard let value = Double(text), (0...1).contains(value) else {
                    throw OptionError("expected a fraction between 0 and 1, like 0.05")
                }
                return value
            })

        public static let compress = OptionSpec<CompressionMode>(
            .pack, "compress", default: .auto, shown: CompressionMode.auto.rawValue, valueName: "auto|always|never",
            help: "auto: store already-compressed formats without trying, probe the rest; always: try xz on every payload; never.",
            parser: .text { text throws(OptionError) in
                guard let mode = CompressionMode(rawValue: text) else {
                    throw OptionError("'\(text)' is not a compression mode: use auto, always or never")
                }
                return mode
            })

        public static let xzLevel = OptionSpec<UInt32>(
            .pack, "xz-level", default: PayloadCompressor.defaultLevel, shown: String(PayloadCompressor.defaultLevel),
            valueName: "0-9", help: "liblzma preset, 0–9.", deprecatedNames: ["level"],
            parser: .integer(0...9) { UInt32($0) })

        public static let packLimit = OptionSpec<Int>.size(
            .pack, "pack-limit", default: 512 * 1_000_000, shown: "512MB",
            help: "Bundles larger than this are reported (8GB for iOS 18 and later).") { $0.bytes }

        public static let applePackIDs = OptionSpec<ApplePackIDs>.choice(
            .pack, "apple-pack-ids", default: .perDeviceGroup,
            help: "Managed asset pack IDs: one per device group (each device downloads its own variants, through the generated filter) or one universal pack per tag set.")

        public static let appleODR = OptionSpec<Bool>.flag(
            .pack, "apple-odr",
            help: "Also write the deprecated On-Demand Resources plists (OnDemandResources.plist, AssetPackManifest.plist).")

        public static let playDeviceGroups = OptionSpec<[String: [String]]>.words(
            .pack, "play-device-groups", default: [:], shown: "[]",
            help: "Play device groups for asset packs: name=device+device entries (high=android-xxhdpi+android-xxxhdpi); each group's files go under #group_<name> folders.") { entries throws(OptionError) in
                var groups: [String: [String]] = [:]
                for (index, entry) in entries.enumerated() {
                    let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let first = parts[0].first, first.isLetter,
                          parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), parts[0] != "other" else {
                        throw OptionError("'\(entry)' is not name=device+device with a group name of letters, digits and _ (not 'other')", item: index)
                    }
                    let devices = parts[1].split(separator: "+").map(String.init)
                    guard !devices.isEmpty, groups.updateValue(devices, forKey: parts[0]) == nil else {
                        throw OptionError("the group '\(parts[0])' is empty or given twice", item: index)
                    }
                }
                let listed = groups.values.flatMap { $0 }
                guard Set(listed).count == listed.count else { throw OptionError("a device class is in two groups") }
                return groups
            }

        public static let untagged = OptionSpec<UntaggedPlacement>.choice(
            .pack, "untagged", default: .app,
            help: "Where sets with no on-demand tag go: app (they stay in the app, under app/, as Xcode and Gradle keep them; only tagged sets become packs) or pack (a downloaded base pack, for apps that load everything through TesseraClient).")

        public static let all: [any DeclaredOption] = [initialInstall, prefetchOrder, untagged, baseURL, minSaving, compress,
                                                       xzLevel, packLimit, applePackIDs, appleODR, playDeviceGroups]
    }

    /// `stages.report`, and `tessera report`: size budgets (docs/size-report.md).
    public enum Report {
        public static let maxInstall = OptionSpec<Int?>.size(
            .report, "max-install", default: nil, shown: nil,
            help: "Fail the build when a device class's initial-install bytes (as stored) go over this.") { $0.bytes }

        public static let maxPack = OptionSpec<Int?>.size(
            .report, "max-pack", default: nil, shown: nil,
            help: "Fail the build when any one pack of a device class goes over this.") { $0.bytes }

        public static let maxTotal = OptionSpec<Int?>.size(
            .report, "max-total", default: nil, shown: nil,
            help: "Fail the build when a device class's install plus on-demand bytes go over this.") { $0.bytes }

        public static let maxAsset = OptionSpec<Int?>.size(
            .report, "max-asset", default: nil, shown: nil,
            help: "Fail the build when one asset's files for a device class go over this.") { $0.bytes }

        public static let maxTag = OptionSpec<[String: Int]>.words(
            .report, "max-tag", default: [:], shown: "[]",
            help: "Fail the build when a tag's packs for a device class go over a size: tag=size entries (level1=20MB).") { entries throws(OptionError) in
                var limits: [String: Int] = [:]
                for (index, entry) in entries.enumerated() {
                    let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, !parts[0].isEmpty else {
                        throw OptionError("'\(entry)' is not tag=size (level1=20MB)", item: index)
                    }
                    guard let size = ByteCount(parsing: parts[1]) else {
                        throw OptionError("'\(parts[1])' is not a size like 512MB or 1GiB", item: index)
                    }
                    guard limits.updateValue(size.bytes, forKey: parts[0]) == nil else {
                        throw OptionError("the tag '\(parts[0])' is given twice", item: index)
                    }
                }
                return limits
            }

        public static let maxInstallGrowth = growth(
            "max-install-growth", "a device class's initial-install bytes")
        public static let maxPackGrowth = growth(
            "max-pack-growth", "any one pack of a device class")
        public static let maxAssetGrowth = growth(
            "max-asset-growth", "one asset's files for a device class")

        private static func growth(_ name: String, _ what: String) -> OptionSpec<GrowthLimit?> {
            OptionSpec(.report, name, default: nil, shown: nil, valueName: "size|percent",
                       help: "Fail the build when \(what) grow by more than this against the previous build (--against): a size (200KB) or a share (5%; of what existed before).",
                       parser: .text { text throws(OptionError) in
                           guard let limit = GrowthLimit(parsing: text) else {
                               throw OptionError("'\(text)' is not a size like 200KB or a share like 5%")
                           }
                           return limit
                       })
        }

        public static let maxUpdate = OptionSpec<Int?>.size(
            .report, "max-update", default: nil, shown: nil,
            help: "Fail the build when updating from the previous build (--against) would cost a device class holding every pack of it more than this (patch or compressed manifest, then objects or whole bundles).") { $0.bytes }

        public static let against = OptionSpec<String?>(
            .report, "against", default: nil, shown: nil, valueName: "build",
            help: "A previous build to compare with: its folder, its manifest.json, a URL to one, or a tessera serve channel's URL (http://host/v1/channels/main).",
            parser: .text { $0 })

        public static let insights = OptionSpec<Bool>(
            .report, "insights", default: true, shown: "true", valueName: "bool",
            help: "Measure what could make each device's download smaller (identical files, PNGs Tessera's encoders make smaller); false leaves the insights out.",
            parser: .boolean { $0 })

        public static let all: [any DeclaredOption] = [maxInstall, maxPack, maxTotal, maxAsset, maxTag, maxInstallGrowth,
                                                       maxPackGrowth, maxAssetGrowth, maxUpdate, against, insights]
    }

    /// `stages.manifest`.
    public enum Manifest {
        public static let file = OptionSpec<String>(
            .manifest, "file", default: "manifest.json", shown: "manifest.json", valueName: "name",
            help: "File name of the manifest inside the output folder.",
            parser: .text { name throws(OptionError) in
                guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                    throw OptionError("'\(name)' must be a plain file name inside the output folder")
                }
                return name
            })

        public static let all: [any DeclaredOption] = [file]
    }
}
