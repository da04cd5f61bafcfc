import TesseraCore

/// One frame of an animation, composited onto the canvas, with its timing as the file stores it.
public struct AnimationFrame: Sendable {
    /// 0-based position in the file.
    public let index: Int
    /// The whole canvas after this frame is drawn: what a player shows.
    public let canvas: Bitmap
    /// The delay in the file's own unit: GIF centiseconds, WebP milliseconds.
    public let rawDelay: Int
    /// The raw delay in milliseconds, before any clamping.
    public let delayMs: Int
    /// How the frame's area is treated before the next frame: GIF `none`/`asis`/`background`/`previous`,
    /// WebP `none`/`background`.
    public let disposal: String
    /// The frame's rectangle as stored (it may extend past the canvas; drawing clips it); for
    /// merged GIF images, the union of their rectangles.
    public let x: Int, y: Int, width: Int, height: Int
    /// GIF: how many images were drawn for this frame (see `SubImagePolicy`); 1 otherwise.
    public var subImages = 1
}

/// Streams the frames of an animation in order, holding only the canvas (and, for GIF's
/// restore-to-previous, one saved canvas): memory does not grow with the frame count.
public protocol AnimationFrameReader: AnyObject {
    var info: ImageInfo { get }
    /// The next composited frame, or nil after the last one.
    func nextFrame() throws(TesseraError) -> AnimationFrame?
    /// Set when the file ended early: the frames read so far are valid and this says why no more came.
    var truncation: String? { get }
}

extension ImageDecoders {
    /// A frame reader that streams a GIF from its file (other formats are read into memory first).
    /// GIF images become frames as `options.subImages` says.
    public static func frames(fileAt path: String, options: DecodeOptions = DecodeOptions()) throws(TesseraError)
        -> any AnimationFrameReader {
        if try format(ofFileAt: path) == .gif { return try GIFFrameReader(fileAt: path, options: options) }
        return try frames(of: SourceBytes(contentsOfFile: path), options: options)
    }

    /// A frame reader for an animated (or still) GIF or WebP.
    public static func frames(of source: SourceBytes, options: DecodeOptions = DecodeOptions()) throws(TesseraError)
        -> any AnimationFrameReader {
        switch try format(of: source) {
        case .gif: return try GIFFrameReader(source, options: options)
        case .webp: return try WebPFrameReader(WebPContainer(source), options: options)
        case let other:
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "\(other.displayName) has no frames to stream; only GIF and WebP animate")
        }
    }
}
