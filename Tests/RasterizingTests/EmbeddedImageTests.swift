import CZlib
import Decoding
import Foundation
@testable import Rasterizing
import Testing
import TesseraCore

/// Issue 39: a raster image an SVG carries in a `data:` URL is held to the same pixel limit as a
/// top-level image — each one, all of them together, and inside nested SVGs — measured from its
/// header before librsvg decodes it whole (a 1.6 MB SVG embedding a 20,000² PNG took 4.6 GB).
@Suite("Images embedded in SVGs")
struct EmbeddedImageTests {
    /// A PNG of this size with hardly any pixel data: all a header read needs.
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(kind.utf8) + data
            let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        // The start of a zlib stream as the pixel data: a header read stops at it.
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C]) + chunk("IEND", [])
    }

    static func svg(embedding images: [String]) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">"#
            + images.map { #"<image width="10" height="10" xlink:href="\#($0)"/>"# }.joined() + "</svg>"
    }

    static func dataURL(_ bytes: [UInt8], type: String = "image/png") -> String {
        "data:\(type);base64,\(Data(bytes).base64EncodedString())"
    }

    private func open(_ text: String, reader: (any ImageDimensionsReading)? = HeaderDimensions()) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: Array(text.utf8), format: .svg, path: "embeds.svg", embeddedImages: reader)
    }

    @Test("a 20000×20000 PNG in a data: URL is refused before anything is drawn, naming its size and the limit")
    func oneHugeImage() {
        let error = #expect(throws: TesseraError.self) {
            try open(Self.svg(embedding: [Self.dataURL(Self.pngHeader(width: 20_000, height: 20_000))]))
        }
        #expect(error?.kind == .limitExceeded && error?.file == "embeds.svg", "\(String(describing: error))")
        #expect(error?.reason == "SVG embeds a 20000×20000 image in a data: URL, over the pixel limit of 268435456")
    }

    @Test("images each under the limit but over it together are refused; a small one is accepted")
    func imagesTogether() throws {
        let big = Self.dataURL(Self.pngHeader(width: 12_000, height: 12_000))
        let error = #expect(throws: TesseraError.self) { try open(Self.svg(embedding: [big, big])) }
        #expect(error?.reason.contains("288000000 pixels in all") == true, "\(String(describing: error))")
        // A 2×2 one is measured and accepted.
        let small = try open(Self.svg(embedding: [Self.dataURL(Self.pngHeader(width: 2, height: 2))]))
        #expect(small.pageSize.width == 10)
    }

    @Test("an SVG nested in a data: URL (base64 or percent-encoded) is opened and its images held to the limit too")
    func nestedSVGs() {
        let inner = Self.svg(embedding: [Self.dataURL(Self.pngHeader(width: 20_000, height: 20_000))])
        for url in [Self.dataURL(Array(inner.utf8), type: "image/svg+xml"),
                    "data:image/svg+xml," + inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!] {
            let error = #expect(throws: TesseraError.self) { try open(Self.svg(embedding: [url])) }
            #expect(error?.reason.contains("20000×20000") == true, "\(String(describing: error))")
        }
    }

    @Test("an embedded image that cannot be measured (BMP, damaged base64, no reader given) is refused rather than drawn unbounded")
    func unmeasurableImages() {
        let bmp = "data:image/bmp;base64," + Data([0x42, 0x4D] + [UInt8](repeating: 0, count: 60)).base64EncodedString()
        for (text, reader) in [(Self.svg(embedding: [bmp]), HeaderDimensions() as (any ImageDimensionsReading)?),
                               (Self.svg(embedding: ["data:image/png;base64,%%%"]), HeaderDimensions()),
                               (Self.svg(embedding: [Self.dataURL(Self.pngHeader(width: 2, height: 2))]), nil)] {
            let error = #expect(throws: TesseraError.self) { try open(text, reader: reader) }
            #expect(error?.kind == .invalidInput && error?.reason.contains("Tessera can measure") == true, "\(String(describing: error))")
        }
    }
}
