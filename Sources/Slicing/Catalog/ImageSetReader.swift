import TesseraCore

/// Image sets and app icon sets: images Tessera makes variants of. App icon sets are read by the
/// same rules (their `size`, `platform` and `role` are entry traits); their slots are planned
/// from those traits later (`AppIconSlots`).
enum ImageSetReader {
    /// The asset of an `imageset` or `appiconset`, named `name`, with `tags` (its own and its groups').
    static func asset(_ contents: SetContents, folder: String, name: String, tags: [String],
                      context: CatalogReadContext, problems: inout [CatalogProblem]) -> CatalogAsset {
        let entries = SetFiles.entries(of: contents, folder: folder, context: context, problems: &problems)
        if entries.isEmpty, !problems.contains(where: { $0.file == contents.file && $0.isError }) {
            // Xcode builds nothing from a set whose slots are all empty; neither does Tessera, but it says so.
            let what = contents.kind.assetKind == .appIcon ? "app icon set" : "image set"
            problems.append(CatalogProblem(isError: false, file: contents.file, key: nil,
                                           reason: "the \(what) '\(name)' names no image file (every slot is empty): nothing is built for it"))
        }
        // No entry naming a scale means one file drawn at any scale, as Xcode treats it.
        let unscaled = !entries.isEmpty && !entries.contains { $0.traits.scale != nil }
        return CatalogAsset(
            name: AssetID(name), kind: contents.kind.assetKind, entries: entries, tags: tags, contentsFile: nil,
            isSingleScale: contents.properties.declaresSingleScale || unscaled,
            preservesVectorRepresentation: contents.properties.preservesVectorRepresentation,
            templateRenderingIntent: contents.properties.templateRenderingIntent, catalog: context.catalog)
    }
}
