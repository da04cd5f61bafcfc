/// The vector formats Tessera rasterises.
public enum VectorFormat: String, Sendable, Codable, CaseIterable {
    /// PDF: the first page is drawn, at its crop box size in points (MuPDF; needs the
    /// `PDFRasterizing` trait, docs/vectors.md).
    case pdf
    /// SVG: drawn at its width and height (or its viewBox when they are missing or relative),
    /// one CSS pixel to the point, as Xcode takes it (librsvg).
    case svg

    /// The name error messages use.
    public var displayName: String { rawValue.uppercased() }
}
