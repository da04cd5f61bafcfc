import Delivery
import TesseraCore

/// What one device class downloads of a build: its install (the packs that ship with the app),
/// each pack, and each asset's share, measured from the manifest (`docs/size-report.md`).
public struct DeviceSizes: Sendable, Codable, Equatable {
    public var device: String
    /// The device class's name (`iPhone 17 Pro Max`).
    public var name: String
    /// What the App Store or Play installs with the app: the initial-install packs and the
    /// device's share of what stays in the app (`app`).
    public var install: ByteTotals
    /// The device's share of the sets that stay in the app, as the App Store thins it (`AppShare`);
    /// part of `install`.
    public var app: ByteTotals
    /// Prefetch and on-demand packs.
    public var onDemand: ByteTotals
    /// Every pack the device has a bundle in, install first, then by tags.
    public var packs: [PackSize]
    /// Every asset the device gets, largest first (ties by name).
    public var assets: [AssetSize]

    public init(device: String, name: String, install: ByteTotals, onDemand: ByteTotals, packs: [PackSize], assets: [AssetSize],
                app: ByteTotals = ByteTotals()) {
        self.device = device
        self.name = name
        self.install = install
        self.app = app
        self.onDemand = onDemand
        self.packs = packs
        self.assets = assets
    }
}

extension DeviceSizes {
    private enum CodingKeys: String, CodingKey { case device, name, install, app, onDemand, packs, assets }

    /// A report written before what stays in the app was counted has no `app`: nothing then.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(device: try container.decode(String.self, forKey: .device), name: try container.decode(String.self, forKey: .name),
                  install: try container.decode(ByteTotals.self, forKey: .install),
                  onDemand: try container.decode(ByteTotals.self, forKey: .onDemand),
                  packs: try container.decode([PackSize].self, forKey: .packs),
                  assets: try container.decode([AssetSize].self, forKey: .assets),
                  app: try container.decodeIfPresent(ByteTotals.self, forKey: .app) ?? ByteTotals())
    }
}

/// Bytes on the wire (the bundles as stored) and unpacked (their files).
public struct ByteTotals: Sendable, Codable, Equatable {
    public var bytes: Int
    public var unpacked: Int

    public init(bytes: Int = 0, unpacked: Int = 0) {
        self.bytes = bytes
        self.unpacked = unpacked
    }

    public static func + (lhs: ByteTotals, rhs: ByteTotals) -> ByteTotals {
        ByteTotals(bytes: lhs.bytes + rhs.bytes, unpacked: lhs.unpacked + rhs.unpacked)
    }
}

/// One pack's bundle for one device.
public struct PackSize: Sendable, Codable, Equatable {
    public var pack: String
    public var tags: [String]
    public var category: PackCategory
    public var size: ByteTotals

    public init(pack: String, tags: [String], category: PackCategory, size: ByteTotals) {
        self.pack = pack
        self.tags = tags
        self.category = category
        self.size = size
    }
}

/// One asset's files in a device's bundles.
public struct AssetSize: Sendable, Codable, Equatable {
    public var asset: String
    /// The files' bytes as built (before any bundle compression).
    public var bytes: Int
    /// Its variant files under the output folder.
    public var files: [String]
    /// The pack holding it, or `app` for what stays in the app.
    public var pack: String

    public init(asset: String, bytes: Int, files: [String], pack: String) {
        self.asset = asset
        self.bytes = bytes
        self.files = files
        self.pack = pack
    }
}
