import ArgumentParser
import Encoding

/// `--png-effort`, `--png-level` and the lossy palette's `--png-palette`, `--png-quality` and
/// `--png-palette-speed`, shared by the commands that write PNG.
struct PNGOptions: ParsableArguments {
    @Option(help: "PNG effort: fast, default or max (docs/png-encoding.md).")
    var pngEffort: PNGEffort = .default

    @Option(help: "PNG DEFLATE level 0–12; overrides --png-effort's level.")
    var pngLevel: Int?

    @Option(help: "PNG palette: off (lossless, the default) or lossy (at most 256 colours through libimagequant).")
    var pngPalette: PNGPalette.Mode = .off

    @Option(help: "Lossy palette quality MIN-MAX, 0–100 (default 65-90): below MIN the PNG stays truecolour.")
    var pngQuality: String?

    @Option(help: "Lossy palette speed 1 (best) to 10 (fastest); default 4.")
    var pngPaletteSpeed: Int?

    func validate() throws {
        if let pngLevel, !(0...12).contains(pngLevel) { throw ValidationError("--png-level must be 0–12") }
        if let pngQuality, PNGPalette.quality(parsing: pngQuality) == nil {
            throw ValidationError("--png-quality takes \(PNGPalette.qualityUsage), not '\(pngQuality)'")
        }
        if let pngPaletteSpeed, !PNGPalette.speeds.contains(pngPaletteSpeed) {
            throw ValidationError("--png-palette-speed must be 1–10")
        }
        if pngPalette == .lossy, let reason = PNGPalette.unavailableReason {
            throw ValidationError("--png-palette lossy: \(reason)")
        }
    }

    var encoder: PNGEncoder {
        PNGEncoder(effort: pngEffort, compressionLevel: pngLevel,
                   palette: PNGPalette(mode: pngPalette,
                                       quality: pngQuality.flatMap(PNGPalette.quality(parsing:)) ?? PNGPalette.defaultQuality,
                                       speed: pngPaletteSpeed ?? PNGPalette.defaultSpeed))
    }
}

extension PNGEffort: ExpressibleByArgument {}
extension PNGPalette.Mode: ExpressibleByArgument {}
