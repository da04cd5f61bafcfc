import TesseraCore

/// Data, colour and symbol sets: carried to the build as they are, never resized. A data set's
/// files are copied; a colour set is its Contents.json (the colours are in it); a symbol set is
/// its SVG files plus its Contents.json, which says how they are drawn.
enum DataSetReader {
    /// The asset of a `dataset`, `colorset` or `symbolset`, named `name`, with `tags`.
    static func asset(_ contents: SetContents, folder: String, name: String, tags: [String],
                      context: CatalogReadContext, problems: inout [CatalogProblem]) -> CatalogAsset {
        let entries = SetFiles.entries(of: contents, folder: folder, context: context, problems: &problems)
        let carriesContents = contents.kind == .color || contents.kind == .symbol
        return CatalogAsset(
            name: AssetID(name), kind: contents.kind.assetKind, entries: entries, tags: tags,
            contentsFile: carriesContents ? contents.file : nil, isSingleScale: false,
            preservesVectorRepresentation: contents.properties.preservesVectorRepresentation,
            templateRenderingIntent: contents.properties.templateRenderingIntent, catalog: context.catalog)
    }
}
