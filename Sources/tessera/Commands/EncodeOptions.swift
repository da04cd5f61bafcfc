import ArgumentParser
import BuildOptions
import Encoding
import Pipeline
import ReadyBitmaps

private typealias Encode = OptionTable.Encode

/// The pipeline's `encode` options as command-line options, under the same names, for the
/// commands that write images (`convert`, `downscale`). Parsed once, into encoders.
struct EncodeOptions: ParsableArguments {
    @Option(name: Encode.pngEffort.long, help: Encode.pngEffort.argumentHelp, transform: Encode.pngEffort.argument)
    var pngEffort = Encode.pngEffort.defaultValue

    @Option(name: Encode.pngLevel.long, help: Encode.pngLevel.argumentHelp, transform: Encode.pngLevel.unwrapped())
    var pngLevel: Int?

    @Option(name: Encode.pngPalette.long, help: Encode.pngPalette.argumentHelp, transform: Encode.pngPalette.argument)
    var pngPalette = Encode.pngPalette.defaultValue

    @Option(name: Encode.pngPaletteQuality.long, help: Encode.pngPaletteQuality.argumentHelp,
            transform: Encode.pngPaletteQuality.argument)
    var pngPaletteQuality = Encode.pngPaletteQuality.defaultValue

    @Option(name: Encode.pngPaletteSpeed.long, help: Encode.pngPaletteSpeed.argumentHelp,
            transform: Encode.pngPaletteSpeed.argument)
    var pngPaletteSpeed = Encode.pngPaletteSpeed.defaultValue

    @Option(name: Encode.jpegQuality.long, help: Encode.jpegQuality.argumentHelp, transform: Encode.jpegQuality.argument)
    var jpegQuality = Encode.jpegQuality.defaultValue

    @Flag(name: Encode.jpegProgressive.long, help: Encode.jpegProgressive.argumentHelp)
    var jpegProgressive = Encode.jpegProgressive.defaultValue

    @Option(name: Encode.jpegChroma.long, help: Encode.jpegChroma.argumentHelp, transform: Encode.jpegChroma.argument)
    var jpegChroma = Encode.jpegChroma.defaultValue

    @Option(name: Encode.webpQuality.long, help: Encode.webpQuality.argumentHelp, transform: Encode.webpQuality.argument)
    var webpQuality = Encode.webpQuality.defaultValue

    // Earlier spellings, still accepted (with a warning) so scripts keep working.
    @Option(name: Encode.pngLevel.deprecatedName(), help: .private, transform: Encode.pngLevel.unwrapped())
    var pngCompressionLevel: Int?

    @Option(name: Encode.pngPaletteQuality.deprecatedName(), help: .private,
            transform: Encode.pngPaletteQuality.argument)
    var pngQuality: ClosedRange<Int>?

    @Option(name: .customLong("quality"), help: .private, transform: Encode.jpegQuality.argument)
    var quality: Int?

    /// One line for each deprecated spelling given.
    var warnings: [String] {
        var lines: [String] = []
        if pngCompressionLevel != nil { lines.append(Encode.pngLevel.deprecation(of: "--png-compression-level")) }
        if pngQuality != nil { lines.append(Encode.pngPaletteQuality.deprecation(of: "--png-quality")) }
        if quality != nil {
            lines.append("'--quality' is deprecated; use --jpeg-quality or --webp-quality, which the pipeline's encode stage names alike")
        }
        return lines
    }

    /// The encode stage's options as a pipeline's `encode:` with the same values would make them:
    /// the one place encoders are assembled (`EncodeStageOptions.bindings`).
    var section: EncodeStageOptions {
        var section = EncodeStageOptions()
        section.set(Encode.pngEffort, pngEffort)
        section.set(Encode.pngLevel, pngLevel ?? pngCompressionLevel)
        section.set(Encode.pngPalette, pngPalette)
        section.set(Encode.pngPaletteQuality, pngQuality ?? pngPaletteQuality)
        section.set(Encode.pngPaletteSpeed, pngPaletteSpeed)
        section.set(Encode.jpegQuality, quality ?? jpegQuality)
        section.set(Encode.jpegProgressive, jpegProgressive)
        section.set(Encode.jpegChroma, jpegChroma)
        section.set(Encode.webpQuality, quality ?? webpQuality)
        return section
    }

    /// What an image written by a command is encoded with; `lossless` keeps a lossless WebP master's
    /// variants lossless, as the pipeline does.
    func encoding(lossless: Bool, layout: ReadyPixelLayout = OptionTable.Decompress.pixelFormat.defaultValue) -> OutputEncoding {
        let section = self.section
        var webp = section.webp
        webp.lossless = lossless
        return OutputEncoding(png: section.png, jpeg: section.jpeg, webp: webp, layout: layout)
    }
}
