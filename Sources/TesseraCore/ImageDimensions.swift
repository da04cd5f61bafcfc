/// Reads an image's width and height from its header, without decoding it: what a stage that
/// meets images inside other files (an SVG's `data:` URLs) needs from the decoders, without
/// depending on them. The decoders' module provides the one implementation.
public protocol ImageDimensionsReading: Sendable {
    /// The image's size in pixels, or nil when the bytes are no image this reader knows.
    func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)?
}
