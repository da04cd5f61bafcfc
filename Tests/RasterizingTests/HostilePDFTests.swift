#if PDFRasterizing
import Foundation
import Rasterizing
import Testing
import TestSupport
import TesseraCore

/// Generated hostile PDFs: each is refused, or drawn, within the limits, with a `.decode` error
/// that says which limit or what damage; never a crash or a hang.
@Suite("Hostile PDF input")
struct HostilePDFTests {
    private func makeDocument(_ pdf: HandMadePDF, limits: VectorLimits = VectorLimits()) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: pdf.bytes(), format: .pdf, limits: limits, path: "hostile.pdf")
    }

    @Test("a million-point page is refused by the pixel limit before any pixel memory is allocated")
    func hugePage() throws {
        let pdf = HandMadePDF.page(box: "0 0 1000000 1000000", content: "0 0 1 rg 0 0 10 10 re f")
        let document = try makeDocument(pdf)
        #expect(document.pageSize == PageSize(width: 1_000_000, height: 1_000_000))
        let error = #expect(throws: TesseraError.self) { try document.render(scale: .x1) }
        #expect(error?.kind == .limitExceeded && error?.origin == .rasterize)
    }

    @Test("a content-stream bomb (0.5 MB deflating to 224 MB of path operators) stops at the time budget")
    func contentStreamBomb() throws {
        // 8 million filled triangles: several seconds of MuPDF's time, against a half-second budget.
        let content = Array(String(repeating: "0 0 m 10 10 l 0 10 l h f\n", count: 8_000_000).utf8)
        let document = try makeDocument(.page(box: "0 0 10 10", content: content), limits: VectorLimits(renderSeconds: 0.5))
        let start = Date()
        let error = #expect(throws: TesseraError.self) { try document.render(scale: .x3) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("time budget") == true)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("a million nested q (save state) operators stop at the renderer's memory limit")
    func deepStateNesting() throws {
        let depth = 1_000_000
        let content = String(repeating: "q ", count: depth) + "0 0 1 rg 0 0 10 10 re f" + String(repeating: " Q", count: depth)
        let document = try makeDocument(.page(box: "0 0 10 10", content: content), limits: VectorLimits(maxRendererBytes: 64 << 20))
        let error = #expect(throws: TesseraError.self) { try document.render(scale: .x1) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("memory limit of 67108864 bytes") == true)
    }

    @Test("a form XObject that draws itself is cut off, not followed forever")
    func selfReferencingForm() throws {
        var pdf = HandMadePDF.page(box: "0 0 10 10", content: "/F Do", resources: "/XObject << /F 5 0 R >>")
        pdf.add(HandMadePDF.stream("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /F 5 0 R >> >>",
                                   Array("0 0 1 rg 0 0 1 1 re f /F Do".utf8)))
        let start = Date()
        _ = try? makeDocument(pdf).render(scale: .x1)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("5,000 pages are over the page limit (an image set draws only the first)")
    func manyPages() {
        var pdf = HandMadePDF()
        let count = 5000
        pdf.add("<< /Type /Catalog /Pages 2 0 R >>")
        pdf.add("<< /Type /Pages /Kids [\((0 ..< count).map { "\($0 + 4) 0 R" }.joined(separator: " "))] /Count \(count) >>")
        pdf.add(HandMadePDF.stream("", Array("0 0 1 rg 0 0 10 10 re f".utf8)))
        for _ in 0 ..< count { pdf.add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 3 0 R >>") }
        let error = #expect(throws: TesseraError.self) { try makeDocument(pdf) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("5000 pages") == true)
    }

    @Test("truncated, damaged and non-PDF bytes are invalid input, never drawn in part")
    func damaged() throws {
        let real = try VectorFixtures.bytes("gear.pdf")
        for bytes in [Array(real.prefix(real.count / 2)), Array(real.prefix(200)), Array("%PDF-1.7\ngarbage".utf8),
                      [0, 1, 2, 3]] {
            let error = #expect(throws: TesseraError.self) {
                try VectorDocument(bytes: bytes, format: .pdf, path: "damaged.pdf").render(scale: .x1)
            }
            #expect(error?.kind == .invalidInput && error?.origin == .rasterize && error?.file == "damaged.pdf")
        }
    }

    /// A minimal ICC profile whose only tag is a v2 `desc` with `name`.
    private func profile(named name: String) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let text = Array(name.utf8) + [0]
        let tag = Array("desc".utf8) + be32(0) + be32(text.count) + text + [UInt8](repeating: 0, count: 79)
        var header = be32(128 + 4 + 12 + tag.count) + [UInt8](repeating: 0, count: 124)
        header[36 ..< 40] = ArraySlice("acsp".utf8)
        return header + be32(1) + Array("desc".utf8) + be32(144) + be32(tag.count) + tag
    }

    @Test("a page drawn in an ICC-based Display P3 space reports Display P3, and its render carries it")
    func displayP3() throws {
        var pdf = HandMadePDF.page(box: "0 0 10 10", content: "/P cs 1 0 0 sc 0 0 10 10 re f",
                                   resources: "/ColorSpace << /P [/ICCBased 5 0 R] >>")
        pdf.add(HandMadePDF.stream("/N 3", profile(named: "Display P3"), raw: true))
        let document = try makeDocument(pdf)
        #expect(document.colorSpace == .displayP3)
        // The profile itself is handed on, for the PNG of the render to embed.
        #expect(document.iccProfile == profile(named: "Display P3"))
        let bitmap = try document.render(scale: .x1)
        #expect(bitmap.colorSpace == .displayP3)
        // Values are drawn as the file gives them (MuPDF in Debian has no colour management).
        #expect(Array(bitmap.pixels[0 ..< 4]) == [255, 0, 0, 255])
    }

    @Test("an sRGB output intent reports sRGB")
    func outputIntent() throws {
        var pdf = HandMadePDF()
        pdf.add("<< /Type /Catalog /Pages 2 0 R /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile 5 0 R >>] >>")
        pdf.add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 4 0 R >>")
        pdf.add(HandMadePDF.stream("", Array("0 0 1 rg 0 0 10 10 re f".utf8)))
        pdf.add(HandMadePDF.stream("/N 3", profile(named: "sRGB IEC61966-2.1"), raw: true))
        #expect(try makeDocument(pdf).colorSpace == .sRGB)
    }
}
#endif
