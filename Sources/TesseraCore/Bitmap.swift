/// A decoded image held in memory: explicit geometry, layout, alpha convention and colour space.
///
/// Rows are `rowStride` bytes apart and may be padded past `width * bytesPerPixel`; pixel data is
/// a copy-on-write array, so a `Bitmap` is a value that can cross task boundaries freely.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rowStride: Int
    public let format: PixelFormat
    public var alpha: AlphaMode
    public var colorSpace: ColorSpace
    /// The raw rows, `rowStride * height` bytes.
    public var pixels: [UInt8]

    /// Wraps existing pixel data, checking that it is large enough for the geometry.
    public init(width: Int, height: Int, rowStride: Int? = nil, format: PixelFormat, alpha: AlphaMode,
                colorSpace: ColorSpace = .sRGB, pixels: [UInt8]) throws(TesseraError) {
        let minimumStride = width * format.bytesPerPixel
        let stride = rowStride ?? minimumStride
        guard width > 0, height > 0 else {
            throw TesseraError(.invalidInput, reason: "a bitmap needs a positive size, got \(width)×\(height)")
        }
        guard stride >= minimumStride, pixels.count >= stride * height else {
            throw TesseraError(.invalidInput,
                               reason: "pixel buffer of \(pixels.count) bytes is too small for \(width)×\(height) at stride \(stride)")
        }
        self.width = width
        self.height = height
        self.rowStride = stride
        self.format = format
        self.alpha = format.hasAlpha ? alpha : .opaque
        self.colorSpace = colorSpace
        self.pixels = pixels
    }

    /// A zero-filled bitmap (transparent black, or black when the format has no alpha).
    public init(width: Int, height: Int, format: PixelFormat, alpha: AlphaMode,
                colorSpace: ColorSpace = .sRGB) throws(TesseraError) {
        let stride = width * format.bytesPerPixel
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else {
            throw TesseraError(.limitExceeded, reason: "\(width)×\(height) pixels overflow memory addressing")
        }
        try self.init(width: width, height: height, format: format, alpha: alpha, colorSpace: colorSpace,
                      pixels: [UInt8](repeating: 0, count: max(count, 0)))
    }

    /// A bitmap whose pixel memory is allocated but not cleared, for a decoder that is about to
    /// write every byte: skipping the clear saves a full pass over memory on large images.
    /// The caller must overwrite all `width × height × bytesPerPixel` bytes before reading them.
    public static func unfilled(width: Int, height: Int, format: PixelFormat, alpha: AlphaMode,
                                colorSpace: ColorSpace = .sRGB) throws(TesseraError) -> Bitmap {
        let stride = width * format.bytesPerPixel
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, width > 0, height > 0 else {
            throw TesseraError(.limitExceeded, reason: "\(width)×\(height) pixels cannot be allocated")
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        return try Bitmap(width: width, height: height, format: format, alpha: alpha, colorSpace: colorSpace,
                          pixels: pixels)
    }

    /// Bytes the pixel data occupies: the figure the scheduler budgets with.
    public var byteCount: Int { rowStride * height }

    /// The bytes of row `y`, without stride padding.
    public func row(_ y: Int) -> ArraySlice<UInt8> {
        let start = y * rowStride
        return pixels[start ..< start + width * format.bytesPerPixel]
    }
}
