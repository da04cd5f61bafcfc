import Foundation

/// The Contents.json of a folder inside a catalog that holds sets rather than files: a group, a
/// sprite atlas (a group as far as its sets go: SpriteKit packs them at run time), a watch
/// complication set (one image set per complication family, its `role`, read under its name), a
/// tvOS brand-assets folder (app icon stacks and top shelf images), or a layered image: a tvOS
/// `imagestack` or a visionOS `solidimagestack`, whose layers each hold one `Content.imageset`.
///
/// Layers are kept, not flattened: tvOS draws its parallax and visionOS its depth from the
/// separate layers at run time, so each layer is an image asset of its own
/// (`App Icon/Front`, `App Icon/Back`), shipped to the devices of its idiom.
struct GroupContents {
    /// The folder kinds that hold sets, by extension.
    enum Kind {
        case group, complicationSet, brandAssets, layeredImage, layer

        init?(folderExtension: String) {
            switch folderExtension {
            case "", "spriteatlas": self = .group
            case "complicationset": self = .complicationSet
            case "brandassets": self = .brandAssets
            case "imagestack", "solidimagestack": self = .layeredImage
            case "imagestacklayer", "solidimagestacklayer": self = .layer
            default: return nil
            }
        }

        /// The key of the list of what the folder holds, checked against the folders present.
        var listKey: String? {
            switch self {
            case .complicationSet, .brandAssets: "assets"
            case .layeredImage: "layers"
            case .group, .layer: nil
            }
        }
    }

    /// The group's sets are named under the group's name (`provides-namespace`).
    var providesNamespace = false
    /// Tags for every set inside, merged with each set's own.
    var onDemandTags: [String] = []

    /// Reads a group's or sprite atlas's Contents.json (nil: the folder has none, which is fine). Only the
    /// namespace and tags are read: any other `properties` key is a warning.
    init(group top: ContentsField?, problems: inout [CatalogProblem]) {
        guard let top else { return }
        let properties = top["properties"]
        problems += properties.unknownKeys { $0 == "provides-namespace" || $0 == "on-demand-resource-tags" }
        providesNamespace = properties["provides-namespace"].value as? Bool ?? false
        onDemandTags = SetProperties.onDemandTags(properties, problems: &problems)
    }

    /// A complication set's, brand-assets folder's or layered image's Contents.json only lists
    /// what is inside it (read as any set is): a warning for each key an item should not have, and
    /// an error for each listed folder that is missing (`folder` is the folder's path on disk).
    static func listProblems(_ top: ContentsField?, kind: Kind, folder: String) -> [CatalogProblem] {
        guard let key = kind.listKey else { return [] }
        var problems: [CatalogProblem] = []
        for item in top?[key].objects ?? [] {
            problems += item.unknownKeys { ["filename", "idiom", "role", "size"].contains($0) }
            if let name = item["filename"].value as? String,
               !FileManager.default.fileExists(atPath: "\(folder)/\(name)") {
                problems.append(item["filename"].problem("lists '\(name)', which is not in the folder"))
            }
        }
        return problems
    }
}
