/// Whether a GIF image with no delay is a frame of its own or part of the next one.
///
/// GIF89a says a Graphic Control Extension's delay of 0 means "continue processing without
/// waiting": an image with delay 0 (or with no Graphic Control Extension at all) is drawn together
/// with the images after it, up to and including the next one with a delay, and shown once as a
/// single frame. That is `merge`, the default, and what gdk-pixbuf's GIF test suite expects.
/// Browsers do not: Chromium, Firefox and WebKit show every image as a frame and play the 0
/// delay as 100 ms; that is `separate`.
///
/// A file in which *no* image has a delay is the common "play as fast as you reasonably can" GIF,
/// not a stack of layers: under `merge` every image in it stays a frame, so it keeps animating.
///
/// Only GIF has sub-images; WebP frames are unaffected.
public enum SubImagePolicy: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case merge
    case separate

    public var description: String { rawValue }

    /// Groups images into frames: for each image, given whether any image in the file has a
    /// delay, whether the canvas is shown (a frame ends) once the image is drawn. The last image
    /// always ends a frame; the caller handles that, since a streaming reader learns it late.
    func endsFrame(delayCentiseconds: Int, fileHasDelays: Bool) -> Bool {
        switch self {
        case .separate: true
        case .merge: delayCentiseconds > 0 || !fileHasDelays
        }
    }
}
