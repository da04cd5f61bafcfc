import Delivery
import TesseraCore

/// What changed between two builds: each device's install and on-demand totals, and each asset
/// added, removed, grown or shrunk. Assets are matched by name and their variants by scale
/// (and Android density folder, through the path); a variant whose SHA-256 changed counts as
/// changed even when its size did not.
public struct SizeChanges: Sendable, Codable, Equatable {
    public struct DeviceChange: Sendable, Codable, Equatable {
        public var device: String
        public var install: ByteTotals
        public var installBefore: ByteTotals
        public var onDemand: ByteTotals
        public var onDemandBefore: ByteTotals
        /// Install bytes now minus before.
        public var installDelta: Int { install.bytes - installBefore.bytes }
        public var onDemandDelta: Int { onDemand.bytes - onDemandBefore.bytes }
    }

    public enum Kind: String, Sendable, Codable {
        case added, removed, grown, shrunk
        /// Same bytes in total, other content.
        case changed
    }

    public struct AssetChange: Sendable, Codable, Equatable {
        public var asset: String
        public var kind: Kind
        /// Every variant's bytes, summed (0 when absent).
        public var before: Int
        public var after: Int
        public var delta: Int { after - before }
        /// The largest variant of the asset in the newer build (absent when removed) and in the
        /// older one: what a report shows as its before/after pictures.
        public var afterFile: String?
        public var beforeFile: String?
    }

    public var devices: [DeviceChange]
    /// Changed assets, largest change first (ties by name).
    public var assets: [AssetChange]

    init(from old: SizeReport, to new: SizeReport, previous: Manifest, current: Manifest) {
        let before = Dictionary(old.devices.map { ($0.device, $0) }) { first, _ in first }
        devices = new.devices.map { device in
            let was = before[device.device]
            return DeviceChange(device: device.device, install: device.install,
                                installBefore: was?.install ?? ByteTotals(), onDemand: device.onDemand,
                                onDemandBefore: was?.onDemand ?? ByteTotals())
        }
        func variants(_ manifest: Manifest) -> [String: [String: VariantEntry]] {
            Dictionary(manifest.assets.map { asset in
                (asset.name.name, Dictionary(asset.variants.map { ("\($0.scale) \($0.path)", $0) }) { first, _ in first })
            }) { first, _ in first }
        }
        let was = variants(previous), now = variants(current)
        var changes: [AssetChange] = []
        for name in Set(was.keys).union(now.keys).sorted() {
            let old = was[name] ?? [:], new = now[name] ?? [:]
            let oldBytes = old.values.reduce(0) { $0 + $1.bytes }, newBytes = new.values.reduce(0) { $0 + $1.bytes }
            let kind: Kind
            if old.isEmpty { kind = .added } else if new.isEmpty { kind = .removed }
            else if newBytes > oldBytes { kind = .grown } else if newBytes < oldBytes { kind = .shrunk }
            else if old.mapValues(\.sha256) != new.mapValues(\.sha256) { kind = .changed }
            else { continue }
            changes.append(AssetChange(asset: name, kind: kind, before: oldBytes, after: newBytes,
                                       afterFile: new.values.max { $0.bytes < $1.bytes }?.path,
                                       beforeFile: old.values.max { $0.bytes < $1.bytes }?.path))
        }
        assets = changes.sorted { (abs($0.delta), $1.asset) > (abs($1.delta), $0.asset) }
    }
}
