import Delivery
import Foundation
import TesseraCore

/// Limits a build must stay within (`report:` in the pipeline file, `docs/size-report.md`): per
/// device class, its install, each on-demand pack and its total; per asset. Store limits (Apple's
/// per-pack and Play's) are checked besides whatever the pipeline sets.
public struct SizeBudget: Sendable, Equatable, Encodable {
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
    /// Growth against the previous build (`against`), per device class: its install, each pack,
    /// each asset. A share (`5%`) applies to what existed before; a size also to what is new.
    public var maxInstallGrowth: GrowthLimit?
    public var maxPackGrowth: GrowthLimit?
    public var maxAssetGrowth: GrowthLimit?
    /// What updating from the previous build (`against`) may cost a device class holding every
    /// pack of it: its delta bytes (`UpdateCosts`).
    public var maxUpdate: Int?

    public init(maxInstall: Int? = nil, maxPack: Int? = nil, maxTotal: Int? = nil, maxAsset: Int? = nil,
                maxTag: [String: Int] = [:], maxInstallGrowth: GrowthLimit? = nil, maxPackGrowth: GrowthLimit? = nil,
                maxAssetGrowth: GrowthLimit? = nil, maxUpdate: Int? = nil) {
        self.maxInstall = maxInstall
        self.maxPack = maxPack
        self.maxTotal = maxTotal
        self.maxAsset = maxAsset
        self.maxTag = maxTag
        self.maxInstallGrowth = maxInstallGrowth
        self.maxPackGrowth = maxPackGrowth
        self.maxAssetGrowth = maxAssetGrowth
        self.maxUpdate = maxUpdate
    }

    /// Whether any growth limit is set (they need a previous build).
    public var limitsGrowth: Bool { maxInstallGrowth != nil || maxPackGrowth != nil || maxAssetGrowth != nil }

    /// Refuses a budget that cannot mean what it says of `manifest`'s build: a tag no asset of the
    /// build has (a misspelt tag would otherwise never fail), or growth limits without a previous
    /// build to grow from. `option`: how the tag limits are spelt where they were given.
    public func check(against manifest: Manifest, hasPrevious: Bool, option: String = "--max-tag") throws(TesseraError) {
        let known = Set(manifest.assets.flatMap(\.tags) + manifest.data.flatMap(\.tags) + manifest.packs.flatMap(\.tags)).sorted()
        let unknown = maxTag.keys.filter { !known.contains($0) }.sorted()
        if let first = unknown.first {
            let closest = EditDistance.closest(to: first, in: known).prefix(3)
            throw TesseraError(.configuration, origin: .report,
                               reason: "\(option) names \(unknown.count == 1 ? "a tag" : "tags") no asset of this build has: \(unknown.joined(separator: ", ")); "
                                   + (known.isEmpty ? "the build has no tags" : "its tags are \(known.joined(separator: ", "))")
                                   + (closest.isEmpty ? "" : " (closest to '\(first)': \(closest.joined(separator: ", ")))"))
        }
        if limitsGrowth, !hasPrevious {
            throw TesseraError(.configuration, origin: .report,
                               reason: "growth budgets (max-install-growth, max-pack-growth, max-asset-growth) need a previous build to compare with: give --against (report: against: in a pipeline)")
        }
        if maxUpdate != nil, !hasPrevious {
            throw TesseraError(.configuration, origin: .report,
                               reason: "max-update needs the previous build devices update from: give --against (report: against: in a pipeline)")
        }
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
    /// `previous`: the previous build's report, for the growth limits.
    public func violations(in report: SizeReport, of manifest: Manifest, previous: SizeReport? = nil) -> [BudgetViolation] {
        let android = !manifest.deviceClasses.isEmpty && manifest.deviceClasses.allSatisfy { $0.platform == .android }
        return violations(in: report, android: android) + growthViolations(in: report, previous: previous)
    }

    /// Every growth limit `report` goes over against `previous`, device by device. A device class
    /// the previous build did not have is new, not grown.
    public func growthViolations(in report: SizeReport, previous: SizeReport?) -> [BudgetViolation] {
        guard let previous, limitsGrowth else { return [] }
        let before = Dictionary(previous.devices.map { ($0.device, $0) }) { first, _ in first }
        var found: [BudgetViolation] = []
        func check(_ now: Int, _ was: Int, _ limit: GrowthLimit?, _ budget: String, _ what: String, device: String,
                   cause: AssetGrowth? = nil) {
            guard let limit, let allowance = limit.allowance(before: was), now - was > allowance else { return }
            found.append(BudgetViolation(device: device, item: what, budget: "\(budget) \(limit)", bytes: now - was, limit: allowance,
                                         before: was, cause: cause))
        }
        for device in report.devices {
            guard let was = before[device.device] else { continue }
            let assetsBefore = Dictionary(was.assets.map { ($0.asset, $0.bytes) }) { first, _ in first }
            // What grew most, so an install's or a pack's line names the asset behind it.
            func biggestGrowth(in assets: [AssetSize]) -> AssetGrowth? {
                let growth = assets.map { AssetGrowth(asset: $0.asset, bytes: $0.bytes - (assetsBefore[$0.asset] ?? 0)) }
                return growth.filter { $0.bytes > 0 }.max { ($0.bytes, $1.asset) < ($1.bytes, $0.asset) }
            }
            check(device.install.bytes, was.install.bytes, maxInstallGrowth, "max-install-growth", "install", device: device.device,
                  cause: maxInstallGrowth == nil ? nil : biggestGrowth(in: device.assets.filter { asset in
                      asset.pack == SizeReport.appPack || device.packs.contains { $0.pack == asset.pack && $0.category == .initialInstall }
                  }))
            let packsBefore = Dictionary(was.packs.map { ($0.pack, $0.size.bytes) }) { first, _ in first }
            for pack in device.packs {
                check(pack.size.bytes, packsBefore[pack.pack] ?? 0, maxPackGrowth, "max-pack-growth", "pack \(pack.pack)", device: device.device,
                      cause: maxPackGrowth == nil ? nil : biggestGrowth(in: device.assets.filter { $0.pack == pack.pack }))
            }
            for asset in device.assets {
                check(asset.bytes, assetsBefore[asset.asset] ?? 0, maxAssetGrowth, "max-asset-growth", "asset \(asset.asset)", device: device.device)
            }
        }
        return found
    }

    /// Every limit `report` goes over, device by device, in a fixed order.
    public func violations(in report: SizeReport, android: Bool = false) -> [BudgetViolation] {
        var found: [BudgetViolation] = []
        func check(_ value: Int, _ limit: Int?, _ budget: String, _ what: String, device: String) {
            if let limit, value > limit {
                let named = budget.hasPrefix("max-") ? "\(budget) \(ByteText.size(limit))" : budget
                found.append(BudgetViolation(device: device, item: what, budget: named, bytes: value, limit: limit))
            }
        }
        for device in report.devices {
            check(device.install.bytes, maxInstall, "max-install", "install", device: device.device)
            check(device.install.bytes + device.onDemand.bytes, maxTotal, "max-total", "install + on demand", device: device.device)
            for pack in device.packs {
                let name = "pack \(pack.pack)" + (pack.tags.isEmpty ? "" : " [\(pack.tags.joined(separator: ","))]")
                check(pack.size.bytes, maxPack, "max-pack", name, device: device.device)
                check(pack.size.bytes, android ? Self.playPackLimit : Self.applePackLimit,
                      android ? "Google Play's pack limit of \(ByteText.size(Self.playPackLimit))" : "Apple's pack limit of \(ByteText.size(Self.applePackLimit))",
                      name, device: device.device)
            }
            for (tag, limit) in maxTag.sorted(by: { $0.key < $1.key }) {
                let bytes = device.packs.filter { $0.tags.contains(tag) }.reduce(0) { $0 + $1.size.bytes }
                check(bytes, limit, "max-tag", "tag \(tag)", device: device.device)
            }
            if android {
                // Play's limit is on its asset packs: what aapt2 compiles into the app is not one.
                check(device.install.bytes - device.app.bytes, Self.playInstallTimeLimit,
                      "Google Play's limit of \(ByteText.size(Self.playInstallTimeLimit))", "install-time packs", device: device.device)
                check(device.onDemand.bytes, Self.playDeferredLimit, "Google Play's limit of \(ByteText.size(Self.playDeferredLimit))",
                      "fast-follow and on-demand packs", device: device.device)
            }
            for asset in device.assets { check(asset.bytes, maxAsset, "max-asset", "asset \(asset.asset)", device: device.device) }
            if let update = report.update?.devices.first(where: { $0.device == device.device }) {
                check(update.deltaBytes, maxUpdate, "max-update", "update from the previous build", device: device.device)
            }
        }
        return found
    }
}
