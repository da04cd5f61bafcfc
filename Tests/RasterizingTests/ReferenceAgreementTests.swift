import Rasterizing
import TestSupport
import Testing
import TesseraCore

/// Tessera's renders of real image-set vectors against the reference renderers at the same
/// pixel size. Thresholds: SVG ≥ 40 dB against rsvg-convert (the same librsvg; only the route
/// to the surface differs); PDF ≥ 25 dB against pdftoppm, whose Splash rasteriser anti-aliases
/// with 16 levels where MuPDF uses 256, so small icons, almost all edge, differ at edges only
/// (docs/vectors.md: over 33 mastodon-ios PDFs the mean was 33.3 dB, the lowest 25.7).
@Suite("Vector renders agree with the reference renderers")
struct ReferenceAgreementTests {
    @Test("an SVG's page size is its width and height in points, and 3x is three times that, rounded",
          arguments: [("brand_logo.svg", 18.0, 20.0, 54, 60), ("checkmark.seal.fill.svg", 44.3701, 44.3897, 133, 133)])
    func svgSize(name: String, width: Double, height: Double, pixelWidth: Int, pixelHeight: Int) throws {
        let document = try VectorFixtures.document(name)
        #expect(abs(document.pageSize.width - width) < 1e-3 && abs(document.pageSize.height - height) < 1e-3)
        #expect(try document.pixelSize(at: .x3) == (pixelWidth, pixelHeight))
        #expect(document.colorSpace == .sRGB)
    }

    @Test("SVG renders match rsvg-convert at 3x, alpha included",
          arguments: ["brand_logo", "checkmark.seal.fill"])
    func svgMatchesRsvgConvert(name: String) throws {
        let render = try VectorFixtures.document("\(name).svg").render(scale: .x3)
        let reference = try VectorFixtures.reference("\(name)@3x.png")
        #expect(render.format == .rgba8 && render.alpha == .straight)
        #expect((render.width, render.height) == (reference.width, reference.height))
        #expect(PixelAgreement.psnrOverWhite(render, reference) >= 40)
        #expect(PixelAgreement.psnrOfAlpha(render, reference) >= 40)
        // Not trivially equal because both are blank: the icon covers part of the canvas only.
        let covered = (0 ..< render.height).flatMap { y in (0 ..< render.width).map { PixelAgreement.alpha(render, $0, y) } }
        #expect(covered.contains(0) && covered.max() ?? 0 > 128)
    }

    @Test("an exact pixel size stretches the page to fill it")
    func exactPixelSize() throws {
        let bitmap = try VectorFixtures.document("brand_logo.svg").render(scale: .pixels(width: 40, height: 20))
        #expect((bitmap.width, bitmap.height) == (40, 20))
    }

    #if PDFRasterizing
    @Test("a PDF's page size is its crop box in points; device RGB has no declared colour space",
          arguments: [("gear.pdf", 28.0, 28.0), ("mastodon_logo.pdf", 299.0, 77.0), ("photo.fill.split.pdf", 92.0, 76.0)])
    func pdfSize(name: String, width: Double, height: Double) throws {
        let document = try VectorFixtures.document(name)
        #expect(document.pageSize == PageSize(width: width, height: height))
        #expect(document.pageCount == 1)
        #expect(document.colorSpace == .unspecified)
    }

    @Test("PDF renders match pdftoppm at 3x over white",
          arguments: ["gear", "mastodon_logo", "photo.fill.split"])
    func pdfMatchesPdftoppm(name: String) throws {
        let render = try VectorFixtures.document("\(name).pdf").render(scale: .x3)
        let reference = try VectorFixtures.reference("\(name)@3x.png")
        #expect((render.width, render.height) == (reference.width, reference.height))
        #expect(PixelAgreement.psnrOverWhite(render, reference) >= 25)
    }

    @Test("PDF pages keep transparency: the corners of an icon are clear, its strokes opaque")
    func pdfHasAlpha() throws {
        let render = try VectorFixtures.document("gear.pdf").render(scale: .x3)
        #expect(PixelAgreement.alpha(render, 0, 0) == 0)
        let alphas = (0 ..< render.height).flatMap { y in (0 ..< render.width).map { PixelAgreement.alpha(render, $0, y) } }
        #expect(alphas.contains(255))
    }
    #else
    @Test("without the PDFRasterizing trait a PDF is drawn by mutool in a separate process")
    func pdfWithoutTheTrait() throws {
        #expect(VectorDocument.rendersPDF == true)
        #expect(try VectorFixtures.document("gear.pdf").pdfRenderer == .separateProcess)
    }
    #endif
}
