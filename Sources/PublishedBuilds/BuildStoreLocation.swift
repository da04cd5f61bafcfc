import TesseraCore

/// Where the build store is, as `tessera serve --database` names it:
/// `sqlite:PATH` (created on first start) for one server instance, or
/// `postgres://user[:password]@host[:port]/database` for several sharing one store.
public enum BuildStoreLocation {
    public static func open(_ location: String) async throws(TesseraError) -> any BuildStore {
        if location.hasPrefix("sqlite:") {
            let path = String(location.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw TesseraError(.configuration, file: location, origin: .store, reason: "sqlite: needs a file path")
            }
            return try SQLiteBuildStore(path: path)
        }
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            return try await PostgresBuildStore(url: location)
        }
        throw TesseraError(.configuration, file: location, origin: .store, reason: "expected sqlite:PATH or postgres://user@host:port/database")
    }
}
