/// How hard the PNG encoder works to make files small: a DEFLATE level on libdeflate's 0–12 scale.
///
/// Measured on photo-like variants (`docs/png-encoding.md`): against libpng at zlib level 9,
/// `fast` is about 10× quicker for 2% more bytes, `default` about 4.7× quicker for slightly fewer
/// bytes, `max` a little quicker for 4% fewer bytes.
public enum PNGEffort: String, CaseIterable, Codable, Sendable {
    case fast
    case `default`
    case max

    /// The libdeflate level the effort stands for.
    public var compressionLevel: Int {
        switch self {
        case .fast: 3
        case .default: 7
        case .max: 12
        }
    }
}
