import CodecFixtures
import Decoding
import Encoding
import Foundation
import Testing
import TesseraCore

/// The streamed WebP path: the header walked with seeks, rows through libwebp's incremental
/// decoder fed from the file a piece at a time.
@Suite("WebP streamed from the file")
struct WebPStreamingTests {
    /// Every WebP in the corpus, stills and animations.
    private static let corpusFiles: [String] = ["still/pillow/webp", "still/image-webp/gallery2", "still/image-webp/regression",
                                                "still/sdwebimage", "animated/image-webp", "animated/sdwebimage", "animated/pillow"]
        .flatMap { folder in Fixtures.files(in: folder, withExtension: "webp").map { "\(folder)/\($0)" } }

    private static let stills = corpusFiles.filter { !$0.hasPrefix("animated/") }

    /// Reads every row of `reader` in bands of `band` rows.
    private func readAll(_ reader: any RowReader, band: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: reader.width * reader.height * 4)
        let stride = reader.width * 4
        try pixels.withUnsafeMutableBytes { buffer in
            while reader.rowsRead < reader.height {
                let start = UnsafeMutableRawBufferPointer(rebasing: buffer[(reader.rowsRead * stride)...])
                guard try reader.readRows(into: start, stride: stride, count: band) > 0 else { break }
            }
        }
        try reader.finish()
        return pixels
    }

    private func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-webp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the seek-only probe reads what libwebp's demuxer reads, on all corpus WebPs (ICC, EXIF after the image, animations)")
    func probeMatchesDemuxer() throws {
        #expect(Self.corpusFiles.count >= 30)
        for file in Self.corpusFiles {
            let fromBytes = try WebPDecoder().probe(Fixtures.source(file))
            let fromFile = try WebPDecoder().probe(fileAt: Fixtures.path(file))
            #expect(fromFile == fromBytes, "\(file)")
        }
        // flower.webp's EXIF chunk follows its image data, and still gives the orientation.
        let flower = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("still/pillow/webp/flower.webp"))))
        let exif = try #require(Self.offset(of: "EXIF", in: flower)), image = try #require(Self.offset(of: "VP8 ", in: flower))
        #expect(exif > image)
        #expect(try WebPDecoder().probe(fileAt: Fixtures.path("still/pillow/webp/hopper_orientation_6.webp")).orientation == .right)
    }

    @Test("streamed rows are WebPDecode's pixels exactly, at full size and shrunk on load, from a file or from memory")
    func rowsMatchWholeDecode() throws {
        for file in Self.stills {
            let source = try Fixtures.source(file)
            let info = try WebPDecoder().probe(source)
            for factor in [1, 2, 3] where info.width / factor > 0 && info.height / factor > 0 {
                let (width, height) = (info.width / factor, info.height / factor)
                let whole = try WebPDecoder().decode(source, scaledTo: width, height: height,
                                                     options: DecodeOptions(appliesOrientation: false)).bitmap
                let fromFile = try WebPDecoder().openRows(fileAt: Fixtures.path(file), scaleDenominator: factor,
                                                          options: DecodeOptions())
                #expect(fromFile.width == width && fromFile.height == height, "\(file)")
                #expect(try readAll(fromFile, band: 7) == whole.pixels, "\(file) 1/\(factor) from the file")
                let fromMemory = try WebPDecoder().openRows(source, scaleDenominator: factor, options: DecodeOptions())
                #expect(try readAll(fromMemory, band: 64) == whole.pixels, "\(file) 1/\(factor) from memory")
            }
        }
    }

    @Test("a WebP of many 64 KiB pieces streams to the same pixels, lossy with alpha and lossless")
    func largeFileInPieces() throws {
        let image = try Generated.noise(width: 640, height: 480, seed: 7)
        for encoder in [WebPEncoder(quality: 90), WebPEncoder(lossless: true)] {
            let bytes = try encoder.encode(image, iccProfile: nil)
            #expect(bytes.count > 4 * 65536)
            let path = try temporaryFile(bytes, name: "noise.webp")
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            let whole = try WebPDecoder().decode(SourceBytes(bytes: bytes, path: path), options: DecodeOptions()).bitmap
            let reader = try WebPDecoder().openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions())
            #expect(try readAll(reader, band: 16) == whole.pixels)
        }
    }

    @Test("a file cut short is refused by the probe with its name and 'truncated', and never crashes")
    func truncatedFileIsRefused() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("still/pillow/webp/flower.webp"))))
        for length in [8, 20, 100, bytes.count / 2, bytes.count - 1] {
            let path = try temporaryFile(Array(bytes.prefix(length)), name: "cut-\(length).webp")
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            let error = try #require(failure { try WebPDecoder().openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions()) })
            #expect(error.file == path, "\(length)")
            #expect(error.description.contains("cut-\(length).webp"), "\(length)")
            if length > 12 { #expect(error.reason.contains("truncated"), "\(length): \(error.reason)") }
        }
    }

    @Test("image data that ends early (its chunk sizes made to agree) fails while streaming rows, naming the file")
    func truncatedImageDataFailsInTheStream() throws {
        // A simple lossy file: RIFF header, then one VP8 chunk holding the first half of the bitstream.
        let image = try Generated.gradient(width: 300, height: 200, opaque: true)
        let full = try WebPEncoder(quality: 80).encode(image, iccProfile: nil)
        #expect(Array(full[12..<16]) == Array("VP8 ".utf8))
        let payload = Array(full[20...].prefix((full.count - 20) / 2 & ~1))
        func littleEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let cut = Array("RIFF".utf8) + littleEndian(4 + 8 + payload.count) + Array("WEBPVP8 ".utf8)
            + littleEndian(payload.count) + payload
        let path = try temporaryFile(cut, name: "half.webp")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(try WebPDecoder().probe(fileAt: path).width == 300)
        let reader = try WebPDecoder().openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions())
        let error = try #require(failure { try readAll(reader, band: 16) })
        #expect(error.file == path)
        #expect(error.reason.contains("truncated"), "\(error.reason)")
        #expect(reader.rowsRead < 200)
    }

    @Test("an animated WebP is not streamed by rows: a clear configuration error")
    func animationIsNotStreamed() throws {
        let path = Fixtures.path("animated/image-webp/random_lossy.webp")
        let error = try #require(failure { try WebPDecoder().openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions()) })
        #expect(error.reason.contains("animated"))
    }

    private static func offset(of name: String, in bytes: [UInt8]) -> Int? {
        let tag = Array(name.utf8)
        return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(tag) }
    }
}
