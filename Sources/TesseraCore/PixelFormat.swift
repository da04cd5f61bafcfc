/// The memory layout of one pixel in a `Bitmap`.
public enum PixelFormat: String, Sendable, Codable, CaseIterable {
    /// 8-bit red, green, blue, alpha, in that byte order.
    case rgba8
    /// 8-bit blue, green, red, alpha, in that byte order: little-endian "premultiplied first", as `CGImage` prefers.
    case bgra8
    /// 8-bit red, green, blue, no alpha.
    case rgb8
    /// 8-bit gray.
    case gray8
    /// 8-bit gray followed by 8-bit alpha.
    case grayAlpha8

    /// Bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: 4
        case .rgb8: 3
        case .gray8: 1
        case .grayAlpha8: 2
        }
    }

    /// Whether the format stores an alpha channel.
    public var hasAlpha: Bool {
        switch self {
        case .rgba8, .bgra8, .grayAlpha8: true
        case .rgb8, .gray8: false
        }
    }
}

/// How alpha relates to the colour channels.
public enum AlphaMode: String, Sendable, Codable {
    /// No alpha channel, or every pixel is opaque by construction.
    case opaque
    /// Colour channels are independent of alpha (PNG's convention).
    case straight
    /// Colour channels are already multiplied by alpha (what compositors and GPUs want).
    case premultiplied
}

/// The colour space the pixel values are in, as far as Tessera needs to know it.
public enum ColorSpace: Sendable, Codable, Hashable {
    case sRGB
    case displayP3
    /// An embedded ICC profile Tessera does not recognise, kept by its description.
    case icc(description: String)
    /// No colour information in the file; treated as sRGB when drawn.
    case unspecified
}
