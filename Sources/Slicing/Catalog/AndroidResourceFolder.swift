/// An Android resource folder name (`drawable-night-xhdpi-v24`) read as a resource type and the
/// qualifiers Tessera acts on.
///
/// Only `drawable` and `mipmap` folders hold images. A folder without a density qualifier is the
/// default density, mdpi (160 dpi), as Android treats it; `nodpi` and `anydpi` are
/// density-independent (no density). `night`/`notnight`, `ldrtl`/`ldltr` and `vNN` are traits,
/// never mistaken for densities; any other qualifier (`land`, `sw600dp`, a locale) is listed in
/// `unread`: the device picks among such folders at run time, so their files become variant
/// groups of their own that ship beside the unqualified ones, and the reader says so.
public struct AndroidResourceFolder: Sendable, Hashable {
    public static let resourceTypes: Set<String> = ["drawable", "mipmap"]
    public static let densities = ["ldpi": 120, "mdpi": 160, "tvdpi": 213, "hdpi": 240, "xhdpi": 320, "xxhdpi": 480,
                                   "xxxhdpi": 640]
    /// The default density of a folder with no density qualifier.
    public static let defaultDPI = 160

    /// `drawable` or `mipmap`.
    public var resourceType: String
    /// Density in dpi; nil for `nodpi`/`anydpi`.
    public var densityDPI: Int?
    /// `anydpi`: drawn at any density, and preferred by Android to every density bucket.
    public var isAnyDensity = false
    /// `night` (true), `notnight` (false), or nil.
    public var night: Bool?
    public var layoutDirection: LayoutDirection?
    /// `vNN`.
    public var minimumAPILevel: Int?
    /// Qualifiers present but not acted on.
    public var unread: [String] = []

    /// Parses a folder name; nil when it is not a `drawable` or `mipmap` folder.
    public init?(folderName: String) {
        let parts = folderName.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let type = parts.first, Self.resourceTypes.contains(type) else { return nil }
        resourceType = type
        var density: Int? = Self.defaultDPI
        for qualifier in parts.dropFirst() {
            if let dpi = Self.densities[qualifier] {
                density = dpi
            } else if qualifier == "nodpi" || qualifier == "anydpi" {
                density = nil
                isAnyDensity = qualifier == "anydpi"
            } else if qualifier.hasSuffix("dpi"), let dpi = Int(qualifier.dropLast(3)), dpi > 0 {
                density = dpi
            } else if qualifier == "night" || qualifier == "notnight" {
                night = qualifier == "night"
            } else if qualifier == "ldrtl" || qualifier == "ldltr" {
                layoutDirection = qualifier == "ldrtl" ? .rightToLeft : .leftToRight
            } else if qualifier.hasPrefix("v"), let level = Int(qualifier.dropFirst()), level > 0 {
                minimumAPILevel = level
            } else {
                unread.append(qualifier)
            }
        }
        densityDPI = density
    }

    /// Whether `file` (a relative path) sits directly in a `drawable`/`mipmap` folder, where
    /// Android finds it by folder and name, so copies must keep that layout.
    public static func holds(_ file: String) -> Bool {
        let parts = file.split(separator: "/")
        return parts.count >= 2 && AndroidResourceFolder(folderName: String(parts[parts.count - 2])) != nil
    }

    /// Whether the folder `file` (a relative path) sits in names its density (`drawable-mdpi`),
    /// rather than taking mdpi by default (`drawable`, `drawable-night`).
    public static func namesDensity(_ file: String) -> Bool {
        let parts = file.split(separator: "/")
        guard parts.count >= 2 else { return false }
        return parts[parts.count - 2].split(separator: "-").dropFirst().contains { qualifier in
            densities[String(qualifier)] != nil || qualifier == "nodpi" || qualifier == "anydpi"
                || (qualifier.hasSuffix("dpi") && Int(qualifier.dropLast(3)) != nil)
        }
    }

    /// Whether `file` (a relative path) is a launcher icon: a file in a `mipmap-*` folder, which
    /// bundletool keeps at every density in the master split.
    public static func isLauncherIcon(_ file: String) -> Bool {
        let parts = file.split(separator: "/")
        return parts.count >= 2 && AndroidResourceFolder(folderName: String(parts[parts.count - 2]))?.resourceType == "mipmap"
    }

    /// The traits the qualifiers give every file in the folder.
    public var traits: VariantTraits {
        var traits = VariantTraits()
        traits.densityDPI = densityDPI
        if isAnyDensity { traits.anyDensity = true }
        if night == true { traits.appearances = ["dark"] }
        traits.layoutDirection = layoutDirection
        traits.minimumAPILevel = minimumAPILevel
        traits.runtimeQualifiers = unread
        return traits
    }

    /// The warning that qualifiers in `unread` were not acted on, for the folder at `path`
    /// (relative to the input folder); nil when every qualifier was read.
    func unreadWarning(folder path: String) -> CatalogProblem? {
        guard !unread.isEmpty else { return nil }
        return CatalogProblem(
            isError: false, file: path, key: nil,
            reason: "qualifier \(unread.map { "'\($0)'" }.joined(separator: ", ")) is chosen by the device at run time, not by "
                + "Google Play: its files ship beside the unqualified ones to every device of their density")
    }
}
