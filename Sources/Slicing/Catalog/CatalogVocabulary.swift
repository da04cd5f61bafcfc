/// Every key, value and folder kind the catalog and resource readers accept, in one place, so
/// `docs/catalog-conformance.md` can be checked against what the code reads: a test fails when a
/// key accepted here has no row there.
public enum CatalogVocabulary {
    /// Keys of a set's `Contents.json` at the top level.
    public static var setKeys: Set<String> { SetContents.knownKeys }
    /// Keys of one entry of a set's list (`images`, `data`, `colors`, `symbols`).
    public static var entryKeys: Set<String> { SetEntry.knownKeys }
    /// Keys of a set's `properties`.
    public static var propertyKeys: Set<String> { SetProperties.knownKeys }
    /// Folder extensions read as sets or containers.
    public static var folderKinds: Set<String> {
        Set(["imageset", "appiconset", "dataset", "colorset", "symbolset", "spriteatlas", "complicationset", "brandassets",
             "imagestack", "solidimagestack", "imagestacklayer", "solidimagestacklayer", "iconset", "icon"])
    }
    /// `appearances` as `appearance:value`.
    public static var appearances: Set<String> {
        Set(EntryTraits.knownAppearances.flatMap { kind, values in values.map { "\(kind):\($0)" } })
    }
    /// `idiom` values.
    public static var idioms: Set<String> { EntryTraits.idioms }
    /// Android resource folder qualifiers acted on (densities, night, layout direction, API level).
    public static var androidQualifiers: Set<String> {
        Set(AndroidResourceFolder.densities.keys).union(["nodpi", "anydpi", "night", "notnight", "ldrtl", "ldltr", "vNN"])
    }
}
