/// What a vector document may cost before Tessera refuses it: every limit is checked before the
/// work it bounds, so a hostile file fails with a clear error instead of exhausting the machine.
public struct VectorLimits: Sendable, Equatable {
    /// The default pixel limit, the decoders' own: 16384 × 16384.
    public static let defaultMaxPixels = 268_435_456

    /// Renders with more pixels than this are refused before their memory is allocated.
    public var maxPixels: Int
    /// Files larger than this are refused unread. Image-set vectors are kilobytes; the limit
    /// bounds what a compressed bomb inside one can expand to.
    public var maxInputBytes: Int
    /// PDFs with more pages than this are refused (Xcode draws only the first page).
    public var maxPageCount: Int
    /// Memory MuPDF may allocate for one PDF (parsing, fonts, images, the display list), beyond
    /// the bitmap itself.
    public var maxRendererBytes: Int
    /// Wall-clock seconds one PDF or SVG render may take. In process (the PDF trait) a render is
    /// stopped at the next content-stream operator after that; a renderer process (mutool,
    /// tessera-svg-worker) is killed 2 s after it (docs/vectors.md).
    public var renderSeconds: Double

    public init(maxPixels: Int = VectorLimits.defaultMaxPixels, maxInputBytes: Int = 16 << 20,
                maxPageCount: Int = 100, maxRendererBytes: Int = 512 << 20, renderSeconds: Double = 10) {
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
        self.maxPageCount = maxPageCount
        self.maxRendererBytes = maxRendererBytes
        self.renderSeconds = renderSeconds
    }
}
