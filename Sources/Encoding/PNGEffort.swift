/// How hard the PNG encoder works to make files small: a DEFLATE level on libdeflate's 0–12 scale.
///
/// Measured on photo-like variants (`docs/png-encoding.md`): `fast` is about 8× quicker than
/// libpng at zlib level 9 for 2% more bytes, `default` about 5× quicker for the same bytes, `max`
/// about 2× quicker for 4% fewer bytes.
public enum PNGEffort: String, CaseIterable, Sendable {
    case fast
    case `default`
    case max

    /// The libdeflate level the effort stands for.
    public var compressionLevel: Int {
        switch self {
        case .fast: 3
        case .default: 6
        case .max: 12
        }
    }
}
