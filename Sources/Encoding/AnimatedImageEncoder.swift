import TesseraCore

/// Encodes an animation frame by frame, so only one frame is held at a time.
public protocol AnimatedImageEncoder: AnyObject {
    /// Adds the next full-canvas frame, shown for `durationMs`.
    func add(_ frame: Bitmap, durationMs: Int) throws(TesseraError)
    /// Finishes the file and returns its bytes.
    func finish() throws(TesseraError) -> [UInt8]
}

/// How many times an encoded animation plays: the one value both formats' loop fields come from.
public enum AnimationPlays: Sendable, Equatable {
    case forever
    case times(Int)
}
