import CodecFixtures
import Decoding
import Testing
import TesseraCore

@Suite("Format detection")
struct FormatDetectionTests {
    @Test("magic bytes choose the format, whatever the extension")
    func sniffing() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("GIF87a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
    }

    @Test("a PNG named .jpg decodes as PNG with a warning")
    func extensionMismatch() throws {
        let bytes = try Fixtures.source("png/pngsuite/basn2c08.png")
        let renamed = SourceBytes(bytes: UnsafeBufferPointer(start: bytes.pointer, count: bytes.count), path: "photo.jpg")
        let image = try ImageDecoders.decode(renamed)
        #expect(image.info.format == .png)
        #expect(image.warnings.first == "the extension says JPEG but the content is PNG; decoded as PNG")
    }

    @Test("unknown content is a clear error showing the first bytes")
    func unknownContent() throws {
        let text = SourceBytes(bytes: Array("<?xml version".utf8), path: "icon.png")
        let error = try #require(failure { try ImageDecoders.decode(text) })
        #expect(error.description == "icon.png: decode: unrecognised image: content starting 3c 3f 78 6d 6c 20 76 65 is not PNG, JPEG, WebP, GIF or HEIC")
        let empty = SourceBytes(bytes: [UInt8](), path: "empty.png")
        #expect(throws: TesseraError.self) { try ImageDecoders.decode(empty) }
    }
}
