import Foundation

/// Two assets of one kind with the same name (two catalogs sharing a namespace, a catalog set
/// beside a plain file): both are dropped and one error names both places, because picking
/// either would ship the wrong image to someone. An image set and an app icon set may share a
/// name, as Xcode allows (apps name an alternate icon's in-app preview after the icon): the app
/// looks them up apart, and an icon's variants carry its slot size (`AppIcon-x~60x60`), so their
/// files never meet.
public enum AssetNameCollisions {
    /// `assets` without the colliding ones, whose errors are added to `problems`.
    static func rejecting(_ assets: [CatalogAsset], problems: inout [CatalogProblem]) -> [CatalogAsset] {
        func family(_ asset: CatalogAsset) -> String {
            // An icon entry without a slot size would be named like an image's variant.
            if asset.kind == .appIcon, asset.entries.contains(where: { $0.traits.size == nil }) { return "image" }
            return asset.kind.rawValue
        }
        // Names that differ only in case or Unicode normalisation collide too: their files would be
        // one file on APFS and HFS+ (where bundles are extracted), and Tessera's bundle reader
        // refuses such a bundle, so the pack could never install.
        let groups = Dictionary(grouping: assets) {
            "\(family($0))\u{0}\($0.name.name.lowercased().precomposedStringWithCanonicalMapping)"
        }
        var kept: [CatalogAsset] = []
        for (_, group) in groups {
            guard group.count > 1 else {
                kept += group
                continue
            }
            let origins = group.map(origin(of:)).sorted()
            let names = Set(group.map(\.name.name)).sorted()
            let reason = names.count == 1
                ? "asset name '\(names[0])' is also defined by \(origins.dropFirst().joined(separator: ", ")); "
                    + "neither is used (see the catalog namespace rule in docs/variant-selection.md)"
                : "asset names \(names.map { "'\($0)'" }.joined(separator: " and ")) differ only in case or Unicode normalisation (defined by \(origins.joined(separator: ", "))): "
                    + "their files would be one file on a Mac and in a bundle; neither is used"
            problems.append(CatalogProblem(isError: true, file: origins[0], key: nil, reason: reason))
        }
        return kept
    }

    /// Where an asset is defined, for messages: its set folder, or its first file.
    public static func origin(of asset: CatalogAsset) -> String {
        func folder(_ file: String) -> String { file.split(separator: "/").dropLast().joined(separator: "/") }
        if let catalog = asset.catalog {
            if let contents = asset.contentsFile { return folder(contents) }
            if let file = asset.entries.first?.file { return folder(file) }
            return catalog
        }
        return asset.entries.first?.file ?? asset.name.name
    }
}
