import Foundation
import Rasterizing
import Testing
import TestSupport
import TesseraCore

/// A PDF cannot speak for another (issue 54, item 1): MuPDF prints the names of missing objects
/// raw on the stream the worker answers on, so a name holding a newline and the answer marker
/// printed an answer to requests nobody asked. Answers now carry the request's nonce.
@Suite("PDF worker answers that a document forges")
struct ForgedAnswerTests {
    static func innocent(_ index: Int) -> [UInt8] {
        HandMadePDF.page(box: "0 0 \(20 + index) \(30 + index)", content: "0 0 1 rg 0 0 10 10 re f").bytes()
    }

    private static func document(_ bytes: [UInt8]) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: bytes, format: .pdf, limits: VectorLimits(), path: "test.pdf", pdfRenderer: .separateProcess)
    }

    @Test("the hostile PDF fails alone, naming the forgery; 20 innocent PDFs around it, at once, keep their sizes and pixels, every time")
    func hostileFailsAlone() async throws {
        let expected = try (0..<20).map { try Self.document(Self.innocent($0)).render(scale: .x2).pixels }
        for round in 0..<5 {
            let results = await withTaskGroup(of: (Int, Result<[UInt8], TesseraError>).self) { group in
                for index in -1..<20 {
                    group.addTask {
                        do throws(TesseraError) {
                            let document = try Self.document(index < 0 ? HostileVectors.forgingPDF() : Self.innocent(index))
                            return (index, .success(try document.render(scale: .x2).pixels))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [Int: Result<[UInt8], TesseraError>]()) { $0[$1.0] = $1.1 }
            }
            for index in 0..<20 {
                guard case .success(let pixels) = results[index] else {
                    Issue.record("round \(round): innocent \(index) failed: \(String(describing: results[index]))")
                    continue
                }
                #expect(pixels == expected[index], "round \(round): innocent \(index)")
            }
            guard case .failure(let error) = results[-1] else {
                Issue.record("round \(round): the hostile PDF rendered")
                continue
            }
            #expect(error.reason.contains("not this file's") || error.reason.contains("cannot find XObject"), "\(error.reason)")
        }
    }
}
