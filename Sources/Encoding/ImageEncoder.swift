import TesseraCore

/// Encodes a bitmap to one format. Output bytes depend only on the pixels, the ICC profile and
/// the options (no timestamps, no library versions), so builds are reproducible.
public protocol ImageEncoder: Sendable {
    var format: ImageFormat { get }
    func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8]
    /// The same, adding to `notes` what the build report should say about this encode (an
    /// option that could not be honoured, such as a palette below its quality floor).
    func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?, notes: inout [String]) throws(TesseraError) -> [UInt8]
    /// An encoder that takes the image a row at a time and writes the same file, when this
    /// format and these options allow one (nil otherwise: the image must be whole).
    func rowEncoder(for encoding: RowEncoding) throws(TesseraError) -> (any ImageRowEncoder)?
}

extension ImageEncoder {
    public func rowEncoder(for encoding: RowEncoding) throws(TesseraError) -> (any ImageRowEncoder)? { nil }

    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?, notes: inout [String]) throws(TesseraError) -> [UInt8] {
        try encode(bitmap, iccProfile: iccProfile)
    }
}

/// One format's encoder with its settings, as a value: what a job that encodes declares (its
/// settings are part of the job's key).
public enum EncoderSettings: Sendable, Codable, Hashable {
    case png(PNGEncoder)
    case jpeg(JPEGEncoder)
    case webp(WebPEncoder)

    public var encoder: any ImageEncoder {
        switch self {
        case .png(let encoder): encoder
        case .jpeg(let encoder): encoder
        case .webp(let encoder): encoder
        }
    }
}

/// Chooses the encoder for a format with the options a pipeline configured.
public enum ImageEncoders {
    public static func encoder(for format: ImageFormat, png: PNGEncoder = PNGEncoder(),
                               jpeg: JPEGEncoder = JPEGEncoder(),
                               webp: WebPEncoder = WebPEncoder()) throws(TesseraError) -> any ImageEncoder {
        try settings(for: format, png: png, jpeg: jpeg, webp: webp).encoder
    }

    /// The same, as a value a job can declare.
    public static func settings(for format: ImageFormat, png: PNGEncoder = PNGEncoder(),
                                jpeg: JPEGEncoder = JPEGEncoder(),
                                webp: WebPEncoder = WebPEncoder()) throws(TesseraError) -> EncoderSettings {
        switch format {
        case .png: .png(png)
        case .jpeg: .jpeg(jpeg)
        case .webp: .webp(webp)
        case .gif:
            throw TesseraError(.configuration, origin: .encode,
                               reason: "still images are not encoded as GIF; use PNG, JPEG or WebP")
        case .pdf, .svg:
            throw TesseraError(.configuration, origin: .encode,
                               reason: "\(format.displayName) is drawn or carried as it is, never encoded; use PNG, JPEG or WebP")
        case .heic:
            throw TesseraError(.configuration, origin: .encode,
                               reason: "HEIC is decoded but never encoded (Tessera writes no HEVC); use PNG, JPEG or WebP")
        }
    }
}
