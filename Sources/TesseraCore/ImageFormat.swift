/// The container formats Tessera reads and writes, identified by their magic bytes, never by extension.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png
    case jpeg
    case webp
    case gif

    /// Recognises a format from the first bytes of a file (12 are enough for every format).
    public static func sniff<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> ImageFormat? {
        let head = Array(prefix.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// The format an extension conventionally names (`png`, `jpg`, `jpeg`, `webp`, `gif`), case-insensitive.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "gif": self = .gif
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
        }
    }

    /// The name people use for the format in messages.
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .gif: "GIF"
        }
    }
}
