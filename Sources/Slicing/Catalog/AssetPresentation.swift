import Delivery

/// How an app draws an asset, as its catalog declares it. Xcode compiles these into the asset's
/// rendition; Tessera carries them into the manifest, the slice rows and the bundle records so an
/// app loading the asset from a bundle can draw it the same way.
public struct AssetPresentation: Sendable, Hashable, Codable {
    /// `template` (drawn as a mask in the view's tint colour) or `original`; nil when the catalog
    /// leaves it to the platform's default.
    public var renderingIntent: String?
    /// The PDF or SVG is shipped and drawn as vectors at any size, not only as the scaled bitmaps.
    public var preservesVectorRepresentation: Bool
    /// The entry's image slicing (`resizing`: mode, centre, cap insets in points); nil when the
    /// image is not sliced. Absent from the JSON when nil, so rows without it read as before.
    public var resizing: ImageResizing?

    public init(renderingIntent: String? = nil, preservesVectorRepresentation: Bool = false, resizing: ImageResizing? = nil) {
        self.renderingIntent = renderingIntent
        self.preservesVectorRepresentation = preservesVectorRepresentation
        self.resizing = resizing
    }

    /// What `entry` of `asset` declares: an entry's own `template-rendering-intent` (app icon
    /// sets and symbol sets set it per entry) beats the set's `properties`; slicing is per entry.
    public init(_ asset: CatalogAsset, entry: CatalogEntry) {
        self.init(renderingIntent: entry.templateRenderingIntent ?? asset.templateRenderingIntent,
                  preservesVectorRepresentation: asset.preservesVectorRepresentation, resizing: entry.resizing)
    }

    /// True when nothing is declared: nothing needs recording.
    public var isUnspecified: Bool { renderingIntent == nil && !preservesVectorRepresentation && resizing == nil }
}
