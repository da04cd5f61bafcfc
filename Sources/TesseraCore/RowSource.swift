/// A top-to-bottom stream of full-width 8-bit RGBA rows: how a decoder hands an image to the
/// downscaler a band at a time, so neither holds the whole image.
public protocol RowSource: AnyObject {
    /// Row width and count of the stream (after any shrink-on-load).
    var width: Int { get }
    var height: Int { get }
    /// Rows handed out so far.
    var rowsRead: Int { get }
    /// How the rows' alpha is to be read: `.opaque` or `.straight` (decoders) or `.premultiplied`.
    var alpha: AlphaMode { get }
    var colorSpace: ColorSpace { get }
    /// Fills up to `count` rows of `width * 4` bytes, `stride` bytes apart; returns how many it
    /// filled, 0 once every row has been read.
    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int
    /// Reads what follows the pixel data, so a damaged tail is reported; call after the last row.
    func finish() throws(TesseraError)
    /// Non-fatal problems reported so far.
    var warnings: [String] { get }
}

/// Serves the rows of a bitmap held in memory, so whole images and streams share one downscaler.
public final class BitmapRowSource: RowSource {
    private let bitmap: Bitmap
    public private(set) var rowsRead = 0

    /// `bitmap` must be RGBA8.
    public init(_ bitmap: Bitmap) throws(TesseraError) {
        guard bitmap.format == .rgba8 else {
            throw TesseraError(.internalFailure, reason: "row sources carry RGBA8, not \(bitmap.format)")
        }
        self.bitmap = bitmap
    }

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }
    public var alpha: AlphaMode { bitmap.alpha }
    public var colorSpace: ColorSpace { bitmap.colorSpace }
    public var warnings: [String] { [] }

    public func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        let rows = min(count, height - rowsRead)
        guard rows > 0 else { return 0 }
        bitmap.pixels.withUnsafeBytes { source in
            for row in 0..<rows {
                let from = (rowsRead + row) * bitmap.rowStride
                (buffer.baseAddress! + row * stride).copyMemory(from: source.baseAddress! + from, byteCount: width * 4)
            }
        }
        rowsRead += rows
        return rows
    }

    public func finish() throws(TesseraError) {}
}
