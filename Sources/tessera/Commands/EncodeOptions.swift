import ArgumentParser
import BuildOptions
import Encoding

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

    var png: PNGEncoder {
        PNGEncoder(effort: pngEffort, compressionLevel: pngLevel ?? pngCompressionLevel,
                   palette: PNGPalette(mode: pngPalette, quality: pngQuality ?? pngPaletteQuality, speed: pngPaletteSpeed))
    }

    var jpeg: JPEGEncoder {
        JPEGEncoder(quality: quality ?? jpegQuality, progressive: jpegProgressive, chroma: jpegChroma)
    }

    func webp(lossless: Bool) -> WebPEncoder {
        WebPEncoder(quality: quality ?? webpQuality, lossless: lossless)
    }
}
