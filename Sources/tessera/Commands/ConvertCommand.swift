import Pipeline
import ArgumentParser
import BuildOptions
import Decoding
import Encoding
import Foundation
import Rasterizing
import ReadyBitmaps
import TesseraCore

/// `tessera convert IN OUT` or `IN... FOLDER`: decode (upright) and re-encode in the format OUT's
/// extension (or `--format`) names.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image (orientation applied), or draw a PDF or SVG, and encode it as .png, .jpg, .webp or .bitmap.",
        discussion: """
        .bitmap writes Tessera's ready-to-draw format (docs/bitmap-format.md): premultiplied, \
        rows aligned to 64 bytes, memory-mappable. The output is written atomically. An animated \
        input is refused unless --first-frame says to keep its first frame: convert writes one \
        still image (a pipeline keeps animations). Several inputs go into a folder, each as \
        FOLDER/NAME.EXT (EXT: --format, else the input's); one that fails is reported and the \
        others are still written (exit 1).
        """)

    @Argument(help: ArgumentHelp("IN OUT (OUT's extension picks the format), or IN... FOLDER.", valueName: "paths"))
    var paths: [String] = []

    @Option(help: "The output format for a folder of outputs: png, jpg, webp or bitmap (default: each input's).")
    var format: String?

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(name: OptionTable.Decompress.pixelFormat.long, help: OptionTable.Decompress.pixelFormat.argumentHelp,
            transform: OptionTable.Decompress.pixelFormat.argument)
    var pixelFormat = OptionTable.Decompress.pixelFormat.defaultValue

    @OptionGroup var encode: EncodeOptions

    @Option(help: "For a PDF or SVG input: the scale it is drawn at, 1 to 4 (points × scale pixels, as an image set's 1x–3x).")
    var scale = 1

    @Flag(help: "For an animated input: keep its first frame.")
    var firstFrame = false

    func validate() throws {
        guard (1...4).contains(scale) else { throw ValidationError("--scale is 1 to 4") }
        _ = try FileTargets(paths, format: format)
    }

    /// `--pixel-format` as a pipeline's `decompress: pixel-format` with the same value would set it.
    var decompress: DecompressStageOptions {
        var section = DecompressStageOptions()
        section.set(OptionTable.Decompress.pixelFormat, pixelFormat)
        return section
    }

    func run() throws {
        for warning in encode.warnings { printError("warning: \(warning)") }
        let encoding = encode.encoding(lossless: lossless, layout: decompress.layout)
        try FileTargets(paths, format: format).forEach { (input, output) throws(TesseraError) in
            let image = try readImage(input)
            for warning in image.warnings { printError("warning: \(input): \(warning)") }
            var notes: [String] = []
            let bytes = try encoding.encode(image, for: output, stage: .convert, notes: &notes)
            for note in notes { printError("note: \(output): \(note)") }
            try AtomicFile.write(bytes, to: output)
            print("\(output): \(image.bitmap.width)×\(image.bitmap.height), \(ByteCount(bytes: bytes.count))")
        }
    }

    /// The input as one still image: drawn when it is a PDF or SVG, decoded otherwise.
    private func readImage(_ input: String) throws(TesseraError) -> DecodedImage {
        let ext = (input as NSString).pathExtension.lowercased()
        if let format = ImageFormat(fileExtension: ext), VectorFormat(rawValue: format.rawValue) != nil {
            // Drawn as a build's rasterize stage draws it, with the pipeline's default limits.
            let defaults = RasterizeStageOptions()
            let limits = VectorLimits(maxPixels: DecodeStageOptions().maxPixels, maxInputBytes: defaults.maxFileSize,
                                      renderSeconds: Double(defaults.renderSeconds))
            return try VectorRender.draw(fileAt: input, format: format, factor: Double(scale), sRGB: false,
                                         limits: limits, origin: .convert)
        }
        // The header's frame count (a whole-image decode reports its first frame): an animation
        // used to lose every frame but the first without a word.
        let frames = try ImageSource(fileAt: input).header.get().info.frameCount
        guard frames <= 1 || firstFrame else {
            throw TesseraError(.invalidInput, file: input, origin: .convert,
                               reason: "animated (\(frames) frames); convert writes one still image: pass --first-frame to keep the first, or build it with a pipeline, which keeps animations")
        }
        return try ImageDecoders.decode(try SourceBytes(contentsOfFile: input))
    }
}
