import CodecFixtures
import Decoding
@testable import Encoding
import Testing
import TesseraCore

/// The row encoders a downscale pass streams into must write the whole-image encoders' very bytes.
@Suite("Row encoding")
struct RowEncodingTests {
    /// Hands `bitmap`'s rows (RGBA8) to `encoder` one at a time, as a downscale pass does.
    private func stream(_ bitmap: Bitmap, into encoder: any ImageRowEncoder) throws -> [UInt8]? {
        #expect(bitmap.format == .rgba8 && bitmap.rowStride == bitmap.width * 4)
        for y in 0..<bitmap.height {
            let row = Array(bitmap.row(y))
            encoder.rowStorage(y).update(from: row, count: row.count)
            encoder.finishRow(y)
        }
        var notes: [String] = []
        return try encoder.finish(notes: &notes)
    }

    private func encoding(_ bitmap: Bitmap, mayHaveAlpha: Bool, gray: Bool = false,
                          icc: [UInt8]? = nil) -> RowEncoding {
        RowEncoding(width: bitmap.width, height: bitmap.height, alpha: bitmap.alpha, mayHaveAlpha: mayHaveAlpha,
                    gray: gray, iccProfile: icc)
    }

    /// Opaque colour, gray, translucent straight, translucent premultiplied, noise, and one pixel wide.
    private func images() throws -> [(name: String, bitmap: Bitmap)] {
        let translucent = try Generated.gradient(width: 61, height: 17)
        var premultiplied = translucent.pixels
        for index in stride(from: 0, to: premultiplied.count, by: 4) {
            for channel in 0..<3 {
                premultiplied[index + channel] = UInt8((Int(premultiplied[index + channel]) * Int(premultiplied[index + 3]) + 127) / 255)
            }
        }
        return [("flower.jpg", try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap),
                ("hopper_gray.jpg", try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap),
                ("opaque gradient", try Generated.gradient(width: 40, height: 9, opaque: true)),
                ("translucent gradient", translucent),
                ("premultiplied gradient", try Bitmap(width: 61, height: 17, format: .rgba8, alpha: .premultiplied,
                                                      pixels: premultiplied)),
                ("noise", try Generated.noise(width: 33, height: 21, seed: 11)),
                ("one pixel wide", try Generated.gradient(width: 1, height: 12)),
                ("one pixel wide, opaque", try Generated.gradient(width: 1, height: 12, opaque: true))]
    }

    @Test("rows streamed into the PNG encoder give the whole-image file, whichever layout the image ends in")
    func pngRowsGiveTheWholeImageFile() throws {
        let icc = Array("not a real profile, only bytes to carry".utf8)
        for (name, bitmap) in try images() {
            let opaque = (0..<bitmap.height).allSatisfy { y in
                let row = Array(bitmap.row(y))
                return stride(from: 3, to: row.count, by: 4).allSatisfy { row[$0] == 255 }
            }
            for encoder in [PNGEncoder(), PNGEncoder(effort: .max), PNGEncoder(compressionLevel: 0)] {
                let whole = try encoder.encode(bitmap, iccProfile: icc)
                // Kept as RGBA and shrunk at the end when need be; kept as RGB only when opaque.
                for mayHaveAlpha in opaque ? [true, false] : [true] {
                    let rows = try #require(encoder.rowEncoder(for: encoding(bitmap, mayHaveAlpha: mayHaveAlpha, icc: icc)))
                    #expect(try stream(bitmap, into: rows) == whole, "\(name), alpha assumed \(mayHaveAlpha)")
                }
            }
        }
    }

    @Test("a translucent pixel in rows assumed opaque makes the PNG row encoder give up")
    func pngRowsAssumedOpaqueGiveUpOnAlpha() throws {
        let translucent = try Generated.gradient(width: 20, height: 5)
        let rows = try #require(PNGEncoder().rowEncoder(for: encoding(translucent, mayHaveAlpha: false)))
        #expect(try stream(translucent, into: rows) == nil)
    }

    @Test("a lossy palette needs the whole image: no PNG row encoder")
    func lossyPaletteHasNoRowEncoder() throws {
        let encoder = PNGEncoder(palette: PNGPalette(mode: .lossy))
        let image = try Generated.noise(width: 4, height: 4, seed: 1)
        #expect(encoder.rowEncoder(for: encoding(image, mayHaveAlpha: true)) == nil)
    }

    @Test("rows streamed into the JPEG encoder give the whole-image file, colour and gray, baseline and progressive")
    func jpegRowsGiveTheWholeImageFile() throws {
        let icc = Array("profile bytes".utf8)
        let cases: [(String, Bitmap, Bool)] = [
            ("flower.jpg", try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap, false),
            ("hopper_gray.jpg", try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap, true),
            ("translucent gradient", try Generated.gradient(width: 61, height: 17), false)]
        for (name, bitmap, gray) in cases {
            for encoder in [JPEGEncoder(), JPEGEncoder(quality: 70, progressive: true, chroma: .s444),
                            JPEGEncoder(optimizeCoding: false)] {
                let whole = try encoder.encode(bitmap, iccProfile: icc)
                let rows = try #require(try encoder.rowEncoder(for: encoding(bitmap, mayHaveAlpha: false, gray: gray, icc: icc)))
                #expect(try stream(bitmap, into: rows) == whole, "\(name)")
            }
        }
    }

    @Test("JPEG rows that turn out gray when colour was assumed, or the reverse, make the encoder give up")
    func jpegRowsNotMatchingTheirChannelsGiveUp() throws {
        let gray = try Fixtures.decode("still/pillow/jpeg/hopper_gray.jpg").bitmap
        let colour = try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap
        let assumedColour = try #require(try JPEGEncoder().rowEncoder(for: encoding(gray, mayHaveAlpha: false, gray: false)))
        #expect(try stream(gray, into: assumedColour) == nil)
        let assumedGray = try #require(try JPEGEncoder().rowEncoder(for: encoding(colour, mayHaveAlpha: false, gray: true)))
        #expect(try stream(colour, into: assumedGray) == nil)
    }
}
