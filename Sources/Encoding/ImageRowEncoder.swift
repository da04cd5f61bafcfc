import TesseraCore

/// An encoder fed an image's rows as they are made (`ImageRowSink`), which writes the very bytes
/// its whole-image encoder would write for the finished image, without the image ever being whole.
public protocol ImageRowEncoder: ImageRowSink {
    /// The file, once every row was given; nil when the rows turned out not to fit what the
    /// encoder assumed at the start (see each encoder), and the caller must encode the whole
    /// image instead.
    func finish(notes: inout [String]) throws(TesseraError) -> [UInt8]?
}

/// What an encoder fed rows is told before the first one.
public struct RowEncoding: Sendable {
    public var width: Int
    public var height: Int
    /// The rows' alpha convention.
    public var alpha: AlphaMode
    /// Whether any pixel may be translucent (the source has alpha); false lets an encoder keep
    /// fewer channels from the first row.
    public var mayHaveAlpha: Bool
    /// Whether the source is gray, so every row will be.
    public var gray: Bool
    public var iccProfile: [UInt8]?

    public init(width: Int, height: Int, alpha: AlphaMode, mayHaveAlpha: Bool, gray: Bool, iccProfile: [UInt8]?) {
        self.width = width
        self.height = height
        self.alpha = alpha
        self.mayHaveAlpha = mayHaveAlpha
        self.gray = gray
        self.iccProfile = iccProfile
    }
}
