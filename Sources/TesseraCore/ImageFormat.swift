/// The container formats Tessera reads and writes, identified by their magic bytes, never by extension.
///
/// PDF and SVG are vectors: a pipeline with a `rasterize` stage draws them at each scale, and
/// otherwise they are carried as they are (`isDecodable` is false). HEIC is decoded (libheif) but
/// never written: variants made from a HEIC master are JPEG.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png
    case jpeg
    case webp
    case gif
    /// Drawn by the rasterize stage, else carried as is; not decodable.
    case pdf
    /// Drawn by the rasterize stage, else carried as is; not decodable.
    case svg
    /// HEIC/HEIF stills: decoded, never encoded.
    case heic

    /// Whether Tessera has a decoder for the format; the others (vectors) are drawn or copied.
    public var isDecodable: Bool {
        switch self {
        case .png, .jpeg, .webp, .gif, .heic: true
        case .pdf, .svg: false
        }
    }

    /// The format a variant made from a master of this format is written in: the master's own,
    /// except a still GIF (PNG: the same pixels without a 256-colour palette) and HEIC (JPEG:
    /// Tessera writes no HEVC; a photo stays a photo).
    public var generatedVariantFormat: ImageFormat {
        switch self {
        case .gif: .png
        case .heic: .jpeg
        default: self
        }
    }

    /// PDF and SVG: drawn at any size, so a pipeline with a `rasterize` stage renders them at
    /// every scale a device needs instead of carrying them (docs/vectors.md).
    public var isVector: Bool { self == .pdf || self == .svg }

    /// HEIF brands (ISO/IEC 23008-12) found in the `ftyp` box of HEIC/HEIF stills and sequences.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "heif"]

    /// Recognises a format from the first bytes of a file (12 are enough for every format). SVG is
    /// text with no fixed signature, so it is only recognised when it starts with `<svg`.
    public static func sniff<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat? {
        let head = Array(prefix.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        if head.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if head.starts(with: Array("<svg".utf8)) { return .svg }
        if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8),
           let brand = String(bytes: head[8..<12], encoding: .ascii), heifBrands.contains(brand) {
            return .heic
        }
        return nil
    }

    /// The format an extension conventionally names (`png`, `jpg`, `jpeg`, `webp`, `gif`, `pdf`,
    /// `svg`, `heic`, `heif`), case-insensitive.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "gif": self = .gif
        case "pdf": self = .pdf
        case "svg": self = .svg
        case "heic", "heif": self = .heic
        default: return nil
        }
    }

    /// The extension Tessera writes for this format.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .gif: "gif"
        case .pdf: "pdf"
        case .svg: "svg"
        case .heic: "heic"
        }
    }

    /// The name people use for the format in messages.
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .gif: "GIF"
        case .pdf: "PDF"
        case .svg: "SVG"
        case .heic: "HEIC"
        }
    }
}
