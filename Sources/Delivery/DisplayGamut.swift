/// The colour gamut a display shows and an image variant is made for.
///
/// The raw values are the asset-catalog `display-gamut` spellings, which manifests, slice
/// records and device lists carry as they are.
public enum DisplayGamut: String, Sendable, Codable, Hashable, CaseIterable {
    case sRGB
    case displayP3 = "display-P3"
}
