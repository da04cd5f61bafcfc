import TesseraCore

/// What one device class gets of the sets that stay in the app, as the App Store thins the app
/// for it (Xcode's "App size" report): the variant each in-app image set gives that device, and
/// the in-app colour and data sets' files. The size report counts it in the device's install.
public struct AppShare: Sendable, Codable, Equatable {
    /// The device class's identifier.
    public var device: String
    /// The sum of `assets`' bytes.
    public var bytes: Int
    /// Largest first (ties by name).
    public var assets: [AppShareAsset]

    public init(device: String, assets: [AppShareAsset]) {
        self.device = device
        self.assets = assets.sorted { ($0.bytes, $1.asset) > ($1.bytes, $0.asset) }
        bytes = assets.reduce(0) { $0 + $1.bytes }
    }
}

/// One in-app asset's files on one device class.
public struct AppShareAsset: Sendable, Codable, Equatable {
    public var asset: String
    public var bytes: Int
    /// The built files it stands for, under the output folder (`variants/…`, `data/…`), sorted.
    public var files: [String]

    public init(asset: String, bytes: Int, files: [String]) {
        self.asset = asset
        self.bytes = bytes
        self.files = files.sorted()
    }
}
