import ArgumentParser
import BuildOptions
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

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(name: OptionTable.Decompress.pixelFormat.long, help: OptionTable.Decompress.pixelFormat.argumentHelp,
            transform: OptionTable.Decompress.pixelFormat.argument)
    var pixelFormat = OptionTable.Decompress.pixelFormat.defaultValue

    @OptionGroup var encode: EncodeOptions

    func run() throws {
        for warning in encode.warnings { printError("warning: \(warning)") }
        do {
            let source = try SourceBytes(contentsOfFile: input)
            let image = try ImageDecoders.decode(source)
            for warning in image.warnings { printError("warning: \(input): \(warning)") }
            var notes: [String] = []
            let bytes = try OutputEncoding(png: encode.png, jpeg: encode.jpeg, webp: encode.webp(lossless: lossless),
                                           layout: pixelFormat)
                .encode(image, for: output, stage: .convert, notes: &notes)
            for note in notes { printError("note: \(output): \(note)") }
            try AtomicFile.write(bytes, to: output)
            print("\(output): \(image.bitmap.width)×\(image.bitmap.height), \(ByteCount(bytes: bytes.count))")
        } catch {
            throw fail(error)
        }
    }
}
