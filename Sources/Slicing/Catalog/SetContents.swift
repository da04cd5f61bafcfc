/// A set folder's Contents.json, typed: its properties and its entries. Problems about the file
/// as a whole (unknown keys, a value of the wrong type) are reported as it is read; each entry
/// keeps its own (see `SetEntry`).
struct SetContents {
    /// Top-level keys Xcode writes in any kind of set.
    static let knownKeys: Set<String> = ["images", "data", "info", "properties", "colors", "symbols"]

    let kind: SetKind
    /// The Contents.json, relative to the input folder.
    let file: String
    let properties: SetProperties
    /// The entries of the kind's list (`images`, `data`, `colors` or `symbols`).
    let entries: [SetEntry]

    init(_ top: ContentsField, kind: SetKind, problems: inout [CatalogProblem]) {
        self.kind = kind
        file = top.file
        problems += top.unknownKeys(known: Self.knownKeys.contains)
        properties = SetProperties(top["properties"], problems: &problems)
        let list = top[kind.listKey]
        if list.value != nil, list.objects == nil { problems.append(list.problem("expected a list of objects")) }
        entries = (list.objects ?? []).map(SetEntry.init)
        for entry in entries { problems += entry.unknownKeys }
    }
}
