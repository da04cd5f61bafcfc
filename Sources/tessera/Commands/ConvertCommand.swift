import ArgumentParser
import Decoding
import Encoding
import Foundation
import ReadyBitmaps
import TesseraCore

/// `tessera convert IN OUT`: decode (upright) and re-encode in the format OUT's extension names.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image (orientation applied) and encode it as .png, .jpg, .webp or .bitmap.",
        discussion: """
        .bitmap writes Tessera's ready-to-draw format (docs/bitmap-format.md): premultiplied, \
        rows aligned to 64 bytes, memory-mappable. The output is written atomically.
        """)

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write; its extension picks the format.")
    var output: String

    @Option(help: "JPEG or WebP quality, 1–100 (default: 90 for JPEG, 80 for WebP).")
    var quality: Int?

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(help: "Layout of .bitmap output: bgra8 (iOS) or rgba8.")
    var pixelFormat: ReadyPixelLayout = .bgra8

    @OptionGroup var png: PNGOptions

    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1–100") }
    }

    func run() throws {
        do {
            let source = try SourceBytes(contentsOfFile: input)
            let image = try ImageDecoders.decode(source)
            for warning in image.warnings { printError("warning: \(input): \(warning)") }
            var notes: [String] = []
            let bytes = try OutputEncoding(quality: quality, lossless: lossless, layout: pixelFormat, png: png.encoder)
                .encode(image, for: output, stage: .convert, notes: &notes)
            for note in notes { printError("note: \(output): \(note)") }
            try AtomicFile.write(bytes, to: output)
            print("\(output): \(image.bitmap.width)×\(image.bitmap.height), \(ByteCount(bytes: bytes.count))")
        } catch {
            throw fail(error)
        }
    }
}

extension ReadyPixelLayout: ExpressibleByArgument {}
