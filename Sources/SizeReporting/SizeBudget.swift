import Delivery

/// Limits a build must stay within (`report:` in the pipeline file, `docs/size-report.md`): per
/// device class, its install, each on-demand pack and its total; per asset. Store limits (Apple's
/// per-pack and Play's) are checked besides whatever the pipeline sets.
public struct SizeBudget: Sendable, Equatable {
    /// Initial-install bytes (as stored) per device class.
    public var maxInstall: Int?
    /// Any one pack's bytes per device class.
    public var maxPack: Int?
    /// Install plus on-demand bytes per device class.
    public var maxTotal: Int?
    /// Any one asset's files per device class.
    public var maxAsset: Int?
    /// Per tag: the bytes of the packs holding it, per device class.
    public var maxTag: [String: Int]

    public init(maxInstall: Int? = nil, maxPack: Int? = nil, maxTotal: Int? = nil, maxAsset: Int? = nil,
                maxTag: [String: Int] = [:]) {
        self.maxInstall = maxInstall
        self.maxPack = maxPack
        self.maxTotal = maxTotal
        self.maxAsset = maxAsset
        self.maxTag = maxTag
    }

    /// Apple's asset-pack limit (8 GB from iOS 18) and Play's per-pack limit (1.5 GB), as stores
    /// refuse larger packs whatever the pipeline says.
    public static let applePackLimit = 8_000_000_000
    public static let playPackLimit = 1_500_000_000
    /// Play's totals per device: install-time packs together, and fast-follow plus on-demand
    /// packs together (Tessera's initial-install packs are install-time; prefetch, fast-follow).
    public static let playInstallTimeLimit = 4_000_000_000
    public static let playDeferredLimit = 4_000_000_000

    /// Every limit the build of `manifest` goes over: Play's pack limit when all its device
    /// classes are Android, Apple's otherwise.
    public func violations(in report: SizeReport, of manifest: Manifest) -> [BudgetViolation] {
        let android = !manifest.deviceClasses.isEmpty && manifest.deviceClasses.allSatisfy { $0.platform == .android }
        return violations(in: report, android: android)
    }

    /// Every limit `report` goes over, device by device, in a fixed order.
    public func violations(in report: SizeReport, android: Bool = false) -> [BudgetViolation] {
        var found: [BudgetViolation] = []
        func check(_ value: Int, _ limit: Int?, _ what: String, device: String) {
            if let limit, value > limit {
                found.append(BudgetViolation(device: device, item: what, bytes: value, limit: limit))
            }
        }
        for device in report.devices {
            check(device.install.bytes, maxInstall, "install", device: device.device)
            check(device.install.bytes + device.onDemand.bytes, maxTotal, "install + on demand", device: device.device)
            for pack in device.packs {
                let name = "pack \(pack.pack)" + (pack.tags.isEmpty ? "" : " [\(pack.tags.joined(separator: ","))]")
                check(pack.size.bytes, maxPack, name, device: device.device)
                check(pack.size.bytes, android ? Self.playPackLimit : Self.applePackLimit,
                      name + (android ? " (Google Play's pack limit)" : " (Apple's pack limit)"), device: device.device)
            }
            for (tag, limit) in maxTag.sorted(by: { $0.key < $1.key }) {
                let bytes = device.packs.filter { $0.tags.contains(tag) }.reduce(0) { $0 + $1.size.bytes }
                check(bytes, limit, "tag \(tag)", device: device.device)
            }
            if android {
                check(device.install.bytes, Self.playInstallTimeLimit, "install-time packs (Google Play's total limit)",
                      device: device.device)
                check(device.onDemand.bytes, Self.playDeferredLimit, "fast-follow and on-demand packs (Google Play's total limit)",
                      device: device.device)
            }
            for asset in device.assets { check(asset.bytes, maxAsset, "asset \(asset.asset)", device: device.device) }
        }
        return found
    }
}

/// One limit gone over: which device, what, by how much.
public struct BudgetViolation: Sendable, Equatable, Codable {
    public var device: String
    public var item: String
    public var bytes: Int
    public var limit: Int

    public var message: String {
        "\(device): \(item) is \(ThinningSizeReportText.size(bytes)) (\(bytes) bytes), over the budget of \(ThinningSizeReportText.size(limit)) (\(limit) bytes)"
    }
}
