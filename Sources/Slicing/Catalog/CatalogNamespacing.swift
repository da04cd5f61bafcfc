/// How the assets of several `.xcassets` catalogs under one input folder are named.
///
/// Apps keep one catalog per target (app, widget, watch), and each target looks its names up in
/// its own catalog, so two catalogs may both hold an `AppIcon`. `perCatalog` keeps them apart.
public enum CatalogNamespacing: String, Sendable, Hashable, Codable {
    /// With two or more catalogs, every catalog's asset names are prefixed by the catalog's
    /// namespace (see `namespace(ofCatalogAt:)`); a lone catalog's names are left as they are.
    case perCatalog = "per-catalog"
    /// No prefixes: the catalogs share one namespace, and a name defined twice is an error.
    case merged

    /// The namespace of the catalog at `path` (relative to the input folder): the path without
    /// the `.xcassets` extension, or, for Xcode's default name `Assets.xcassets`, the folder holding
    /// it (`Widgets/Assets.xcassets` → `Widgets`, `Shared/Icons.xcassets` → `Shared/Icons`,
    /// a top-level `Assets.xcassets` → `Assets`).
    public static func namespace(ofCatalogAt path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        guard let last = components.popLast() else { return path }
        let stem = last.hasSuffix(".xcassets") ? String(last.dropLast(".xcassets".count)) : last
        if stem == "Assets", !components.isEmpty { return components.joined(separator: "/") }
        return (components + [stem]).joined(separator: "/")
    }

    /// Whether `path` names an asset catalog folder (`App/Assets.xcassets`, a trailing slash allowed).
    public static func isCatalog(_ path: String) -> Bool {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path.hasSuffix(".xcassets")
    }
}
