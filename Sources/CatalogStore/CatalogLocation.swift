import TesseraCore

/// `--catalog`: `sqlite:PATH` (created on first start) for one server instance.
public enum CatalogLocation {
    public static func open(_ location: String) throws(TesseraError) -> any CatalogStore {
        if location.hasPrefix("sqlite:") {
            let path = String(location.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw TesseraError(.configuration, file: location, stage: "catalog", reason: "sqlite: needs a file path")
            }
            return try SQLiteCatalogStore(path: path)
        }
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            throw TesseraError(.configuration, file: location, stage: "catalog",
                               reason: "the PostgreSQL catalog is not implemented yet; use sqlite:PATH")
        }
        throw TesseraError(.configuration, file: location, stage: "catalog", reason: "expected sqlite:PATH")
    }
}
