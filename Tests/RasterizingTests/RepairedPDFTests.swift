import Foundation
import Rasterizing
import Testing
import TestSupport
import TesseraCore

/// A PDF MuPDF repairs (no cross-reference table, `cannot find startxref`; a `startxref` that
/// points elsewhere) renders, as `mutool draw` renders it, with one warning that names the repair;
/// a document MuPDF cannot open still fails (issue 53, item 11). Both renderers: Debian's `mutool`
/// in a separate process (the default build), and MuPDF in process (`PDFRasterizing`).
@Suite("PDFs that MuPDF repairs")
struct RepairedPDFTests {
    static var renderers: [PDFRendererChoice] {
        #if PDFRasterizing
        [.separateProcess, .inProcess]
        #else
        [.separateProcess]
        #endif
    }

    /// A 10 × 10 pt page filled blue.
    private static let page = HandMadePDF.page(box: "0 0 10 10", content: "0 0 1 rg 0 0 10 10 re f")

    @Test("no cross-reference table and no startxref: drawn whole, one warning naming 'cannot find startxref' and the repair",
          arguments: renderers)
    func missingCrossReferences(renderer: PDFRendererChoice) throws {
        let document = try VectorDocument(bytes: Self.page.bytesWithoutCrossReferences(), format: .pdf,
                                          path: "broken.pdf", pdfRenderer: renderer)
        #expect(document.pageSize == PageSize(width: 10, height: 10))
        #expect(document.warnings.count == 1)
        let warning = try #require(document.warnings.first)
        #expect(warning.contains("cannot find startxref") && warning.contains("repaired"), "\(warning)")
        let bitmap = try document.render(scale: .x2)
        #expect(bitmap.width == 20 && bitmap.height == 20)
        #expect(Array(bitmap.pixels[0 ..< 4]) == [0, 0, 255, 255])
        #expect(Array(bitmap.pixels[bitmap.pixels.count - 4 ..< bitmap.pixels.count]) == [0, 0, 255, 255])
    }

    @Test("a startxref pointing into an object: repaired and drawn with its warning", arguments: renderers)
    func misplacedCrossReferences(renderer: PDFRendererChoice) throws {
        let document = try VectorDocument(bytes: Self.page.bytesWithMisplacedCrossReferences(), format: .pdf,
                                          path: "moved.pdf", pdfRenderer: renderer)
        #expect(document.warnings.count == 1 && document.warnings[0].contains("repaired"), "\(document.warnings)")
        #expect(Array(try document.render(scale: .x1).pixels[0 ..< 4]) == [0, 0, 255, 255])
    }

    @Test("a whole file gives no warning; what MuPDF cannot open (no page tree after the repair, not a PDF) still fails",
          arguments: renderers)
    func onlyUnopenableFails(renderer: PDFRendererChoice) throws {
        #expect(try VectorDocument(bytes: Self.page.bytes(), format: .pdf, path: "whole.pdf", pdfRenderer: renderer).warnings.isEmpty)
        let real = try Data(contentsOf: URL(fileURLWithPath: "\(VectorFixtures.folder)/gear.pdf"))
        for bytes in [Array(real.prefix(real.count / 2)), Array("%PDF-1.7\ngarbage".utf8), [0, 1, 2, 3]] {
            let error = #expect(throws: TesseraError.self) {
                try VectorDocument(bytes: bytes, format: .pdf, path: "damaged.pdf", pdfRenderer: renderer).render(scale: .x1)
            }
            #expect(error?.kind == .invalidInput && error?.file == "damaged.pdf")
        }
    }
}
