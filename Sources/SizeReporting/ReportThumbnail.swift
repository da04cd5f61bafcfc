/// A small picture of a built variant, as the HTML report embeds it.
public struct ReportThumbnail: Sendable, Equatable {
    /// The picture's media type (`image/webp`).
    public var mediaType: String
    public var bytes: [UInt8]

    public init(mediaType: String, bytes: [UInt8]) {
        self.mediaType = mediaType
        self.bytes = bytes
    }
}

/// Makes thumbnails of built variant files. The report itself decodes nothing: the caller, which
/// links the codecs, supplies one (`VariantThumbnails` in the pipeline module).
public protocol ThumbnailMaking: Sendable {
    /// The longest side of a thumbnail, in pixels.
    var side: Int { get }
    /// A thumbnail of the image file at `path`; nil when it cannot be read or decoded (the
    /// report then shows the asset without a picture).
    func thumbnail(ofFile path: String) -> ReportThumbnail?
}
