/// The in-memory layouts a ready-to-draw bitmap can be written in, named for what iOS calls them.
public enum ReadyPixelLayout: String, Sendable, Codable, CaseIterable {
    /// Bytes B, G, R, A, premultiplied: a little-endian 32-bit ARGB word, `CGImage`'s
    /// `premultipliedFirst | byteOrder32Little`, the layout iOS draws fastest.
    case bgra8
    /// Bytes R, G, B, A, premultiplied: `premultipliedLast | byteOrder32Big`, what GL/Vulkan uploads expect.
    case rgba8

    /// The code stored in the file header.
    var code: UInt32 {
        switch self {
        case .bgra8: 1
        case .rgba8: 2
        }
    }

    init?(code: UInt32) {
        switch code {
        case 1: self = .bgra8
        case 2: self = .rgba8
        default: return nil
        }
    }
}
