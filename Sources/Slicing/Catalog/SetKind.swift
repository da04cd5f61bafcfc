/// The kinds of set folder in a catalog, by folder extension, and where each keeps its entries.
enum SetKind: String {
    case image = "imageset"
    case appIcon = "appiconset"
    case data = "dataset"
    case color = "colorset"
    case symbol = "symbolset"

    var assetKind: CatalogAsset.Kind {
        switch self {
        case .image: .image
        case .appIcon: .appIcon
        case .data: .data
        case .color: .color
        case .symbol: .symbol
        }
    }

    /// The top-level key of the entry list.
    var listKey: String {
        switch self {
        case .image, .appIcon: "images"
        case .data: "data"
        case .color: "colors"
        case .symbol: "symbols"
        }
    }

    /// Image and app icon sets hold images Tessera makes variants of.
    var holdsImages: Bool { self == .image || self == .appIcon }
}
