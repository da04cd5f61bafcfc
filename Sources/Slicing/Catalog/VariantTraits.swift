import Delivery
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
    /// nil: any.
    public var displayGamut: DisplayGamut?
    /// `dark`, `light`, `high-contrast`, ...; empty: any appearance.
    public var appearances: [String] = []
    /// Android density bucket in dpi (160 for mdpi ...), for plain-folder Android inputs.
    public var densityDPI: Int?
    /// Android's `anydpi` qualifier: a file Android draws at any density, chosen over every
    /// density bucket where its API level applies (`AndroidDensityRule.anyDensity`); nil otherwise
    /// (`nodpi`, which has no density either, is not it).
    public var anyDensity: Bool?
    /// App icon slot size in points (`60x60`), for app icon sets.
    public var size: String?
    /// An app icon entry's `platform` (`ios`, `watchos`, `macos`); nil when the entry names none.
    public var platform: String?
    /// `subtype`: a watch case size (`41mm`) or an old iPhone screen (`retina4`); nil: any.
    public var subtype: String?
    /// A watch app icon entry's `role` (`appLauncher`, `notificationCenter`, `quickLook`, ...).
    public var role: String?
    /// The writing direction the entry is for (`language-direction`, Android `-ldrtl`); nil: both.
    public var layoutDirection: LayoutDirection?
    /// Watch screen-size condition (`screen-width: ">183"`); nil: any width.
    public var screenWidth: ScreenWidthCondition?
    /// `width-class` and `height-class`: the size classes the entry is for; nil: any.
    public var widthClass: SizeClass?
    public var heightClass: SizeClass?
    /// Android qualifiers the device resolves at run time (`land`, `sw600dp`, a locale), in folder
    /// order; empty for none.
    public var runtimeQualifiers: [String] = []
    /// Android `-vNN` qualifier: the lowest API level the entry is for; nil: any.
    public var minimumAPILevel: Int?

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
    /// The format the file's extension names; nil for files that are not images (data set
    /// contents, Android XML drawables). PDF, SVG and HEIC are carried as they are.
    public var format: ImageFormat?
    /// An entry-level `template-rendering-intent` (`template` or `original`), when the entry sets one.
    public var templateRenderingIntent: String?

    public init(file: String, traits: VariantTraits, format: ImageFormat? = nil, templateRenderingIntent: String? = nil) {
        self.file = file
        self.traits = traits
        self.format = format
        self.templateRenderingIntent = templateRenderingIntent
    }
}

/// An asset read from a catalog or folder, ready for selection.
public struct CatalogAsset: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        case image, data, appIcon = "app-icon", color, symbol
        /// An Xcode 26 Icon Composer icon (`.icon`): its description and layers, carried as they are.
        case iconComposer = "icon-composer"
    }

    /// With group namespaces applied: `header/truck/Frame 1`.
    public var name: AssetID
    public var kind: Kind
    public var entries: [CatalogEntry]
    /// On-demand resource tags, sorted.
    public var tags: [String]
    /// For colour sets and other data carried through as is: the Contents.json, relative path.
    public var contentsFile: String?
    /// The set is drawn at any scale (no entry names a `scale`, `properties.scales` is `single`, or
    /// vector data is preserved): one file serves every device, so missing 2x/3x are not a problem.
    public var isSingleScale: Bool
    /// `properties.preserves-vector-representation`: the PDF/SVG is shipped, not rasterised.
    public var preservesVectorRepresentation: Bool
    /// `properties.template-rendering-intent`: `template` or `original`; nil when unset.
    public var templateRenderingIntent: String?
    /// The catalog the asset comes from, relative to the input folder (`Widgets/Assets.xcassets`);
    /// nil for plain-folder assets.
    public var catalog: String?
    /// For Android bitmaps: the XML drawables of the same resource (`drawable-anydpi-v26/logo.xml`
    /// beside `drawable-xxhdpi/logo.png`). They are their own data asset, always kept in the app,
    /// but Android chooses among them and the bitmaps as one resource: where one of them wins (an
    /// `anydpi` one where its API level applies), the device draws it and gets none of the bitmaps.
    public var xmlDrawables: [CatalogEntry] = []

    public init(name: AssetID, kind: Kind, entries: [CatalogEntry], tags: [String], contentsFile: String?,
                isSingleScale: Bool = false, preservesVectorRepresentation: Bool = false,
                templateRenderingIntent: String? = nil, catalog: String? = nil) {
        self.name = name
        self.kind = kind
        self.entries = entries
        self.tags = tags
        self.contentsFile = contentsFile
        self.isSingleScale = isSingleScale
        self.preservesVectorRepresentation = preservesVectorRepresentation
        self.templateRenderingIntent = templateRenderingIntent
        self.catalog = catalog
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
