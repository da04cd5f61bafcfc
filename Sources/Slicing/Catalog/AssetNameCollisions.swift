/// Two assets of one kind family with the same name (two catalogs sharing a namespace, a catalog
/// set beside a plain file): both are dropped and one error names both places, because picking
/// either would ship the wrong image to someone. Images and app icons are one family: they share
/// the variant names.
enum AssetNameCollisions {
    /// `assets` without the colliding ones, whose errors are added to `problems`.
    static func rejecting(_ assets: [CatalogAsset], problems: inout [CatalogProblem]) -> [CatalogAsset] {
        func family(_ asset: CatalogAsset) -> String {
            asset.kind == .image || asset.kind == .appIcon ? "image" : asset.kind.rawValue
        }
        let groups = Dictionary(grouping: assets) { "\(family($0))\u{0}\($0.name.name)" }
        var kept: [CatalogAsset] = []
        for (_, group) in groups {
            guard group.count > 1 else {
                kept += group
                continue
            }
            let origins = group.map(origin(of:)).sorted()
            problems.append(CatalogProblem(
                isError: true, file: origins[0], key: nil,
                reason: "asset name '\(group[0].name.name)' is also defined by \(origins.dropFirst().joined(separator: ", ")); "
                    + "neither is used (see the catalog namespace rule in docs/variant-selection.md)"))
        }
        return kept
    }

    /// Where an asset is defined, for messages: its set folder, or its first file.
    static func origin(of asset: CatalogAsset) -> String {
        func folder(_ file: String) -> String { file.split(separator: "/").dropLast().joined(separator: "/") }
        if let catalog = asset.catalog {
            if let contents = asset.contentsFile { return folder(contents) }
            if let file = asset.entries.first?.file { return folder(file) }
            return catalog
        }
        return asset.entries.first?.file ?? asset.name.name
    }
}
