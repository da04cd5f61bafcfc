import ArgumentParser
import Encoding

/// `--png-effort` and `--png-level`, shared by the commands that write PNG.
struct PNGOptions: ParsableArguments {
    @Option(help: "PNG effort: fast, default or max (docs/png-encoding.md).")
    var pngEffort: PNGEffort = .default

    @Option(help: "PNG DEFLATE level 0–12; overrides --png-effort's level.")
    var pngLevel: Int?

    func validate() throws {
        if let pngLevel, !(0...12).contains(pngLevel) { throw ValidationError("--png-level must be 0–12") }
    }

    var encoder: PNGEncoder { PNGEncoder(effort: pngEffort, compressionLevel: pngLevel) }
}

extension PNGEffort: ExpressibleByArgument {}
