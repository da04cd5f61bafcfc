import TesseraCore

/// `--catalog`: `sqlite:PATH` (created on first start) for one server instance, or
/// `postgres://user[:password]@host[:port]/database` for several sharing one catalog.
public enum CatalogLocation {
    public static func open(_ location: String) async throws(TesseraError) -> any CatalogStore {
        if location.hasPrefix("sqlite:") {
            let path = String(location.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw TesseraError(.configuration, file: location, stage: .catalog, reason: "sqlite: needs a file path")
            }
            return try SQLiteCatalogStore(path: path)
        }
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            return try await PostgresCatalogStore(url: location)
        }
        throw TesseraError(.configuration, file: location, stage: .catalog, reason: "expected sqlite:PATH or postgres://user@host:port/database")
    }
}
