import TesseraCore

/// What a decoder can tell from an image's header without decoding its pixels.
public struct ImageInfo: Sendable, Equatable {
    public var format: ImageFormat
    /// Stored size, before any orientation is applied.
    public var width: Int
    public var height: Int
    /// Bits per sample in the file (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// How the file stores colour: `rgb`, `rgba`, `gray`, `gray+alpha`, `palette`, `cmyk`, `ycck`, `ycbcr`;
    /// for WebP the bitstream kind, `+alpha` when it has alpha (`lossless+alpha`).
    public var colorModel: String
    public var hasAlpha: Bool
    /// Adam7 PNG or progressive JPEG: the whole image must be buffered to decode it.
    public var needsWholeImage: Bool
    public var frameCount: Int
    public var colorSpace: ColorSpace
    /// The embedded ICC profile, kept so encoders can carry it through.
    public var iccProfile: [UInt8]?
    /// The EXIF orientation the file declares (`.up` when it declares none).
    public var orientation: Orientation = .up
    /// For animations: the loop field as stored (GIF NETSCAPE2.0 or WebP ANIM), nil when absent.
    public var loopCount: Int? = nil
    /// For WebP: lossy, lossless or mixed coding; nil for other formats.
    public var webpBitstream: WebPBitstream? = nil
    /// Bytes the decoder itself holds for the whole image while it streams rows: a progressive
    /// JPEG's DCT coefficients (about 2 bytes a pixel per full-resolution component, whatever the
    /// DCT scaling). Zero when the decoder holds only a few rows.
    public var decoderBufferBytes: Int = 0

    /// The ICC profile's own description ("Display P3", "sRGB IEC61966-2.1"), when there is one.
    public var iccName: String? { iccProfile.flatMap(ICCProfile.description(of:)) }

    /// Size once the orientation is applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Whether a `RowStreamingDecoder` can stream this file by rows: non-interlaced PNG, JPEG,
    /// still WebP. Anything else is decoded whole.
    public var streamsByRows: Bool {
        switch format {
        case .jpeg: true
        case .png: !needsWholeImage
        case .webp: frameCount == 1
        default: false
        }
    }

    /// Whether the file stores gray pixels, so that every image made from it is gray.
    public var isGray: Bool { colorModel.hasPrefix("gray") }

    /// Bytes of the decoded 8-bit RGBA bitmap: what holding the decoded image costs.
    public var decodedByteCount: Int { width * height * 4 }
}

extension ImageInfo {
    /// What is known of an image made by other means than decoding (a rendered PDF or SVG page).
    public init(format: ImageFormat, width: Int, height: Int, bitDepth: Int, colorModel: String, hasAlpha: Bool,
                needsWholeImage: Bool, frameCount: Int, colorSpace: ColorSpace, iccProfile: [UInt8]?) {
        self.format = format
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.hasAlpha = hasAlpha
        self.needsWholeImage = needsWholeImage
        self.frameCount = frameCount
        self.colorSpace = colorSpace
        self.iccProfile = iccProfile
    }
}
