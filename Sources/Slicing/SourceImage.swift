import TesseraCore

/// One image file found in an input folder, with the asset and scale its name declares.
public struct SourceImage: Sendable, Hashable, Comparable {
    /// Path relative to the input folder, with `/` separators.
    public let relativePath: String
    /// The asset this file is a variant of.
    public let asset: AssetID
    /// The scale its name declares (`@2x`), or the folder's default for unsuffixed names.
    public let scale: DisplayScale
    /// The format the extension names; decoding still goes by content.
    public let declaredFormat: ImageFormat
    /// For a master drawn at a fixed size rather than at its scale (a single-size app icon made
    /// into one slot): the side of that slot in points. Variants are then `points × scale` pixels.
    public let slotPoints: Double?
    /// For a file whose folder layout is part of what it means (an Android resource in
    /// `res/drawable-xhdpi/`): its path, which its copy keeps under the output folder.
    public let layoutPath: String?

    public init(relativePath: String, asset: AssetID, scale: DisplayScale, declaredFormat: ImageFormat,
                slotPoints: Double? = nil, layoutPath: String? = nil) {
        self.relativePath = relativePath
        self.asset = asset
        self.scale = scale
        self.declaredFormat = declaredFormat
        self.slotPoints = slotPoints
        self.layoutPath = layoutPath
    }

    public static func < (lhs: SourceImage, rhs: SourceImage) -> Bool {
        (lhs.asset, lhs.scale, lhs.relativePath) < (rhs.asset, rhs.scale, rhs.relativePath)
    }
}
