import TesseraCore

/// The device traits an asset-catalog entry (or a file name) says a variant is for.
public struct VariantTraits: Sendable, Hashable, Codable {
    /// `universal`, `iphone`, `ipad`, `mac`, `tv`, `watch`, `car`, `vision`, `ios-marketing`, ...
    public var idiom: String = "universal"
    /// nil: any scale (a single-scale or vector entry).
    public var scale: DisplayScale?
    /// Minimum device memory in GB (`memory: 2GB`).
    public var memoryGB: Int?
    /// Minimum GPU family, as a rank (`metal1v2`, `apple1` … `apple9`): see `GraphicsFamily`.
    public var graphicsFeatureSet: String?
    /// `sRGB` or `display-P3`; nil: any.
    public var displayGamut: String?
    /// `dark`, `light`, `high-contrast`, ...; empty: any appearance.
    public var appearances: [String] = []
    /// Android density bucket in dpi (160 for mdpi ...), for plain-folder Android inputs.
    public var densityDPI: Int?
    /// App icon slot size in points (`60x60`), for app icon sets.
    public var size: String?

    public init(idiom: String = "universal", scale: DisplayScale? = nil) {
        self.idiom = idiom
        self.scale = scale
    }
}

/// One image file of an asset, with its traits.
public struct CatalogEntry: Sendable, Hashable, Codable {
    /// Path relative to the input folder.
    public var file: String
    public var traits: VariantTraits

    public init(file: String, traits: VariantTraits) {
        self.file = file
        self.traits = traits
    }
}

/// An asset read from a catalog or folder, ready for selection.
public struct CatalogAsset: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        case image, data, appIcon = "app-icon", color, symbol
    }

    /// With group namespaces applied: `header/truck/Frame 1`.
    public var name: AssetID
    public var kind: Kind
    public var entries: [CatalogEntry]
    /// On-demand resource tags, sorted.
    public var tags: [String]
    /// For colour sets and other data carried through as is: the Contents.json, relative path.
    public var contentsFile: String?

    public init(name: AssetID, kind: Kind, entries: [CatalogEntry], tags: [String], contentsFile: String?) {
        self.name = name
        self.kind = kind
        self.entries = entries
        self.tags = tags
        self.contentsFile = contentsFile
    }
}

/// Something wrong in a catalog, located to the file and key.
public struct CatalogProblem: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var isError: Bool
    /// Path of the Contents.json (or file) concerned.
    public var file: String
    public var key: String?
    public var reason: String

    public var description: String {
        "\(file): \(isError ? "error" : "warning"): " + (key.map { "'\($0)': " } ?? "") + reason
    }

    public static func < (lhs: CatalogProblem, rhs: CatalogProblem) -> Bool {
        (lhs.file, lhs.key ?? "", lhs.reason) < (rhs.file, rhs.key ?? "", rhs.reason)
    }
}
