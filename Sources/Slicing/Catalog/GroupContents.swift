/// The Contents.json of a folder inside a catalog that holds sets rather than files: a group, a
/// sprite atlas (a group as far as its sets go: SpriteKit packs them at run time) or a watch
/// complication set (one image set per complication family, its `role`, read under its name).
struct GroupContents {
    /// The folder kinds that hold sets, by extension.
    enum Kind {
        case group, complicationSet

        init?(folderExtension: String) {
            switch folderExtension {
            case "", "spriteatlas": self = .group
            case "complicationset": self = .complicationSet
            default: return nil
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

    /// A complication set's Contents.json only lists the image sets inside it (which are read as
    /// any set is): a warning for each key an item of that list should not have.
    static func complicationSetProblems(_ top: ContentsField?) -> [CatalogProblem] {
        (top?["assets"].objects ?? []).flatMap { item in
            item.unknownKeys { ["filename", "idiom", "role"].contains($0) }
        }
    }
}
