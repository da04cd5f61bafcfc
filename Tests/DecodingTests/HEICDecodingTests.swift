import Decoding
import Foundation
import TestSupport
import Testing
import TesseraCore

/// HEIC masters decoded through libheif (issue 26), compared with libheif's own `heif-convert`
/// at test time, and refused cleanly when damaged or over the limits.
@Suite("HEIC decoding")
struct HEICDecodingTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/heic").path

    /// `heif-convert`'s PNG of `name`'s primary image, decoded by Tessera's PNG decoder. A file
    /// with several top-level images gets `-1`, `-2`... outputs, the primary first.
    private func reference(_ name: String) throws -> Bitmap {
        let stem = FileManager.default.temporaryDirectory.appendingPathComponent("heic-\(UUID().uuidString)").path
        let output = "\(stem).png"
        defer {
            for file in [output, "\(stem)-1.png", "\(stem)-2.png"] { try? FileManager.default.removeItem(atPath: file) }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/heif-convert")
        process.arguments = ["\(Self.folder)/\(name)", output]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let written = FileManager.default.fileExists(atPath: output) ? output : "\(stem)-1.png"
        return try ImageDecoders.decode(SourceBytes(contentsOfFile: written)).bitmap
    }

    @Test("real HEIC stills decode to heif-convert's pixels: libheif's example photo and one made from hopper.jpg",
          arguments: [("example.heic", 1280, 854), ("hopper.heic", 128, 128)])
    func matchesHeifConvert(name: String, width: Int, height: Int) throws {
        let source = try SourceBytes(contentsOfFile: "\(Self.folder)/\(name)")
        #expect(try ImageDecoders.format(of: source) == .heic)
        let info = try HEICDecoder().probe(source)
        #expect((info.width, info.height, info.hasAlpha) == (width, height, false))
        let decoded = try ImageDecoders.decode(source)
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (width, height) && decoded.orientationApplied)
        let expected = try reference(name)
        #expect((expected.width, expected.height) == (width, height))
        #expect(PixelAgreement.psnrOverWhite(decoded.bitmap, expected) >= 45)
    }

    @Test("a truncated HEIC, a bare ftyp box and garbage after the brand are errors naming the file, never a crash")
    func damagedFilesAreRefused() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/example.heic")))
        let cases: [(String, [UInt8])] = [
            ("truncated.heic", Array(whole.prefix(whole.count / 3))),
            ("ftyp-only.heic", Array(whole.prefix(24))),
            ("garbage.heic", Array(whole.prefix(32)) + [UInt8](repeating: 0xA5, count: 4096)),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, bytes) in cases {
            let path = "\(folder)/\(name)"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let error = #expect(throws: TesseraError.self) { try ImageDecoders.decode(SourceBytes(contentsOfFile: path)) }
            #expect(error?.file == path && error?.origin == .decode && error?.reason.contains("HEIC") == true,
                    "\(name): \(String(describing: error))")
        }
    }

    @Test("a HEIC over the pixel limit is refused from its header, before anything is decoded")
    func pixelLimitIsCheckedFirst() throws {
        let source = try SourceBytes(contentsOfFile: "\(Self.folder)/example.heic")
        let error = #expect(throws: TesseraError.self) { try ImageDecoders.decode(source, options: DecodeOptions(maxPixels: 1_000_000)) }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("1280×854") == true)
    }

    @Test("variants made from a HEIC master are JPEG: Tessera writes no HEVC")
    func generatedFormat() {
        #expect(ImageFormat.heic.isDecodable && ImageFormat.heic.generatedVariantFormat == .jpeg)
        #expect(ImageFormat.gif.generatedVariantFormat == .png && ImageFormat.png.generatedVariantFormat == .png)
    }
}
