import Decoding
import Foundation
import Rasterizing
import TestSupport
import Testing
import TesseraCore

/// The default build's PDF renderer: Debian's `mutool` run as a separate process under limits
/// (issue 37). It must agree with the in-process MuPDF and the reference renderers, and a hostile
/// PDF must fail its own render within the limits, never the build.
@Suite("PDF through mutool in a separate process")
struct SeparateProcessPDFTests {
    private func document(_ bytes: [UInt8], limits: VectorLimits = VectorLimits()) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: bytes, format: .pdf, limits: limits, path: "test.pdf", pdfRenderer: .separateProcess)
    }

    /// PSNR over every channel of two straight-alpha RGBA8 bitmaps of one size, colours
    /// premultiplied (a nearly clear edge pixel's colour is next to invisible, whatever it is).
    private func psnrRGBA(_ a: Bitmap, _ b: Bitmap) -> Double {
        var sum = 0.0
        for pixel in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            let alphaA = Double(a.pixels[pixel + 3]) / 255, alphaB = Double(b.pixels[pixel + 3]) / 255
            for channel in 0 ..< 4 {
                let x = Double(a.pixels[pixel + channel]) * (channel == 3 ? 1 : alphaA)
                let y = Double(b.pixels[pixel + channel]) * (channel == 3 ? 1 : alphaB)
                sum += (x - y) * (x - y)
            }
        }
        let mse = sum / Double(max(1, a.pixels.count))
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    @Test("the default build renders PDF (mutool is installed by the set-up script)")
    func defaultBuildRendersPDF() {
        #expect(VectorDocument.rendersPDF)
        #expect(VectorDocument.libraryVersions.contains { $0.hasPrefix("mutool version") })
    }

    @Test("page sizes are the crop box in points, inherited boxes included",
          arguments: [("gear.pdf", 28.0, 28.0), ("mastodon_logo.pdf", 299.0, 77.0), ("photo.fill.split.pdf", 92.0, 76.0)])
    func sizes(name: String, width: Double, height: Double) throws {
        let made = try document(try VectorFixtures.bytes(name))
        #expect(made.pageSize == PageSize(width: width, height: height) && made.pageCount == 1)
        // cwa's app-icon PDF has its MediaBox on the Pages node, not the page.
        let inherited = try Data(contentsOf: URL(fileURLWithPath: "\(Workspace.packageRoot)/Tests/Fixtures/fidelity/iphone-only/cwa/Assets.xcassets/Common/Icons_CWAAppIcon.imageset/Icons_CWAAppIcon.pdf"))
        #expect(try document(Array(inherited)).pageSize == PageSize(width: 28, height: 28))
    }

    @Test("renders agree with pdftocairo (256-level anti-aliasing, alpha) at 35 dB or better over premultiplied RGBA, at 1x, 2x and 3x",
          arguments: ["gear", "mastodon_logo", "photo.fill.split"])
    func agreesWithPdftocairo(name: String) throws {
        let made = try document(try VectorFixtures.bytes("\(name).pdf"))
        for scale in [RenderScale.x1, .x2, .x3] {
            let render = try made.render(scale: scale)
            let output = try Workspace()
            let tool = Process()
            tool.executableURL = URL(fileURLWithPath: "/usr/bin/pdftocairo")
            tool.arguments = ["-png", "-transp", "-scale-to-x", "\(render.width)", "-scale-to-y", "\(render.height)",
                              "-singlefile", "\(VectorFixtures.folder)/\(name).pdf", "\(output.root)/ref"]
            try tool.run()
            tool.waitUntilExit()
            #expect(tool.terminationStatus == 0)
            let reference = try ImageDecoders.decode(try SourceBytes(contentsOfFile: "\(output.root)/ref.png")).bitmap
            #expect((reference.width, reference.height) == (render.width, render.height))
            #expect(psnrRGBA(render, reference) >= 35, "\(name) at \(scale)")
        }
    }

    #if PDFRasterizing
    @Test("renders are the in-process MuPDF's, pixel for pixel", arguments: ["gear", "mastodon_logo", "photo.fill.split"])
    func matchesInProcess(name: String) throws {
        let bytes = try VectorFixtures.bytes("\(name).pdf")
        let separate = try document(bytes).render(scale: .x3)
        let inProcess = try VectorDocument(bytes: bytes, format: .pdf, path: name, pdfRenderer: .inProcess).render(scale: .x3)
        #expect(psnrRGBA(separate, inProcess) >= 60)
    }
    #endif

    @Test("a content-stream bomb is stopped at its CPU and time limit and fails alone")
    func contentStreamBomb() throws {
        let content = Array(String(repeating: "0 0 m 10 10 l 0 10 l h f\n", count: 8_000_000).utf8)
        let start = Date()
        // Measuring the page already interprets it (mutool's bbox device): the limit may stop either.
        let error = #expect(throws: TesseraError.self) {
            try document(HandMadePDF.page(box: "0 0 10 10", content: content).bytes(), limits: VectorLimits(renderSeconds: 1))
                .render(scale: .x3)
        }
        #expect(error?.kind == .limitExceeded && error?.origin == .rasterize && error?.file == "test.pdf")
        #expect(Date().timeIntervalSince(start) < 8)
        // Its other scales cost no second time limit: one per file, not one per scale (issue 54).
        let again = #expect(throws: TesseraError.self) {
            try document(HandMadePDF.page(box: "0 0 10 10", content: content).bytes(), limits: VectorLimits(renderSeconds: 1))
                .render(scale: .x2)
        }
        #expect(again?.reason.contains("at another scale of this file") == true, "\(String(describing: again))")
    }

    @Test("a render after a worker was killed at its limit gets a fresh worker and the same pixels as before")
    func killedWorkerIsNotReused() throws {
        let gear = try document(try VectorFixtures.bytes("gear.pdf"))
        let before = try gear.render(scale: .x2)
        // Not contentStreamBomb's file: a file already over its time fails at once, with no worker to kill.
        let bomb = Array(String(repeating: "0 0 m 10 10 l 0 10 l h f\n", count: 8_000_001).utf8)
        let limits = VectorLimits(renderSeconds: 1)
        #expect(throws: TesseraError.self) {
            try document(HandMadePDF.page(box: "0 0 10 10", content: bomb).bytes(), limits: limits).render(scale: .x1)
        }
        // Same limits: the pool would hand back the killed worker if it kept it.
        let again = try VectorDocument(bytes: try VectorFixtures.bytes("gear.pdf"), format: .pdf, limits: limits,
                                       path: "gear.pdf", pdfRenderer: .separateProcess).render(scale: .x2)
        #expect(again.pixels == before.pixels)
        var zombies = ["unchecked"]
        for _ in 0..<20 where !zombies.isEmpty {
            zombies = ChildProcesses.zombies().filter { $0.contains("mutool") || $0.contains("prlimit") || $0.contains("stdbuf") }
            if !zombies.isEmpty { usleep(100_000) }
        }
        #expect(zombies.isEmpty, "killed workers left zombies: \(zombies)")
    }

    @Test("renders on many threads at once (pooled workers) are each the one-at-a-time render, byte for byte")
    func concurrentRendersAgree() async throws {
        let names = ["gear", "mastodon_logo", "photo.fill.split"]
        var alone: [String: [UInt8]] = [:]
        for name in names { alone[name] = try document(try VectorFixtures.bytes("\(name).pdf")).render(scale: .x3).pixels }
        let together = try await withThrowingTaskGroup(of: (String, [UInt8]).self) { group in
            for round in 0 ..< 24 {
                let name = names[round % names.count]
                group.addTask { (name, try document(try VectorFixtures.bytes("\(name).pdf")).render(scale: .x3).pixels) }
            }
            return try await group.reduce(into: [(String, [UInt8])]()) { $0.append($1) }
        }
        #expect(together.count == 24)
        for (name, pixels) in together { #expect(pixels == alone[name], "\(name)") }
    }

    @Test("a huge page is refused by the pixel limit before the renderer runs; a form that draws itself ends")
    func hugePageAndLoop() throws {
        let huge = try document(HandMadePDF.page(box: "0 0 1000000 1000000", content: "0 0 1 rg 0 0 10 10 re f").bytes())
        let error = #expect(throws: TesseraError.self) { try huge.render(scale: .x1) }
        #expect(error?.kind == .limitExceeded)
        var loop = HandMadePDF.page(box: "0 0 10 10", content: "/F Do", resources: "/XObject << /F 5 0 R >>")
        loop.add(HandMadePDF.stream("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /F 5 0 R >> >>",
                                    Array("0 0 1 rg 0 0 1 1 re f /F Do".utf8)))
        let start = Date()
        _ = try? document(loop.bytes()).render(scale: .x1)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("an operator MuPDF does not know (`nan` from a broken exporter, as in DuckDuckGo's icons) is skipped and the page drawn whole")
    func unknownOperatorIsSkipped() throws {
        let made = try document(HandMadePDF.page(box: "0 0 10 10", content: "0 0 1 rg -nan 0 0 10 10 re f").bytes())
        let render = try made.render(scale: .x1)
        #expect(Array(render.pixels[0 ..< 4]) == [0, 0, 255, 255])
    }

    @Test("truncated, damaged and non-PDF bytes MuPDF cannot open are invalid input, never drawn in part")
    func damaged() throws {
        let real = try VectorFixtures.bytes("gear.pdf")
        for bytes in [Array(real.prefix(real.count / 2)), Array("%PDF-1.7\ngarbage".utf8), [0, 1, 2, 3]] {
            let error = #expect(throws: TesseraError.self) { try document(bytes).render(scale: .x1) }
            #expect(error?.kind == .invalidInput && error?.origin == .rasterize && error?.file == "test.pdf")
        }
    }
}
