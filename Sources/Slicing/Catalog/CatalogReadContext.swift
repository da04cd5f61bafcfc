/// What reading one catalog needs at every level: the input folder paths are relative to, the
/// catalog the assets come from, and the boundary no file may leave.
struct CatalogReadContext {
    /// The input folder.
    let root: String
    /// The catalog, relative to `root` (`Widgets/Assets.xcassets`).
    let catalog: String
    let boundary: InputBoundary

    init(root: String, catalogPath: String, boundary: InputBoundary) {
        self.root = root
        self.boundary = boundary
        catalog = Self.relative(catalogPath, to: root)
    }

    /// `path` relative to the input folder (unchanged when it is not inside it).
    func relative(_ path: String) -> String { Self.relative(path, to: root) }

    /// "" for the input folder itself (an input that is a catalog).
    private static func relative(_ path: String, to root: String) -> String {
        if path == root { return "" }
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
