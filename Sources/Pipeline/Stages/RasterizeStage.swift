import Decoding
import Foundation
import JobEngine
import Rasterizing
import Slicing
import TesseraCore

/// A PDF or SVG → its first page drawn at one display scale (`DecodedSource`, straight RGBA8), as
/// Xcode rasterises a single-scale vector set: the page size in points × the scale, with alpha,
/// in the file's colour space, whose ICC profile (a Display P3 PDF's) the PNG then carries.
/// One job per scale, so an asset's 2x and 3x renders run on both cores and never share a bitmap.
struct RasterizeStage: Stage {
    struct Input: Encodable, Sendable {
        let source: SourceFacts
        let format: ImageFormat
        /// How many pixels a point of the page becomes (`PlannedVariant.renderFactor`).
        let factor: Double
        /// The set's entry is explicitly sRGB, so a Display P3 page is converted to it.
        let sRGB: Bool
    }
    typealias Output = DecodedSource
    static let kind = JobKind.rasterize
    static let version = 1
    static let priority = StagePriority.decode
    let options: Options

    struct Options: Codable, Hashable, Sendable {
        /// The decode stage's pixel limit, which renders obey too.
        let maxPixels: Int
        let renderSeconds: Int
        let maxFileSize: Int
        /// The renderers' versions: another librsvg or MuPDF may draw other pixels.
        let renderers: [String]
        let pdfRenderer: String
    }

    init(options: RasterizeStageOptions, maxPixels: Int) {
        self.options = Options(maxPixels: maxPixels, renderSeconds: options.renderSeconds, maxFileSize: options.maxFileSize,
                               renderers: VectorDocument.libraryVersions, pdfRenderer: VectorDocument.activePDFRenderer)
    }

    /// The vector formats this build draws: SVG always, PDF when built with its renderer.
    static var renderedFormats: Set<ImageFormat> {
        VectorDocument.rendersPDF ? [.svg, .pdf] : [.svg]
    }

    func job(source: SourceFacts, format: ImageFormat, factor: Double, sRGB: Bool = false) -> Job<DecodedSource> {
        job(Input(source: source, format: format, factor: factor, sRGB: sRGB))
    }

    func subject(of input: Input) -> String { input.source.path }

    /// The page measured while planning; a file that did not parse then is budgeted as a
    /// 1024-point page (its render fails anyway, or is still bounded by `maxPixels`).
    func memoryCost(of input: Input) -> JobMemory {
        let page = input.source.page ?? PageSize(width: 1024, height: 1024)
        let pixels = min(Double(options.maxPixels), (page.width * input.factor).rounded() * (page.height * input.factor).rounded())
        let estimated = Int(max(1, pixels)) * 4
        return JobMemory(running: input.source.fileSize + estimated, result: estimated)
    }

    func run(_ input: Input, context: JobContext) throws -> DecodedSource {
        let limits = VectorLimits(maxPixels: options.maxPixels, maxInputBytes: options.maxFileSize,
                                  renderSeconds: Double(options.renderSeconds))
        try context.checkCancellation()
        let image = try VectorRender.draw(fileAt: input.source.path, format: input.format, factor: input.factor,
                                          sRGB: input.sRGB, limits: limits, origin: .rasterize)
        return DecodedSource(path: input.source.path, image: image, madeBy: .rasterize)
    }
}
