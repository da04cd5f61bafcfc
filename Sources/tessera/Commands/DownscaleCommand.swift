import Pipeline
import ArgumentParser
import BuildOptions
import Decoding
import Downscaling
import Encoding
import Foundation
import ReadyBitmaps
import StreamingDownscaling
import TesseraCore

private typealias Downscale = OptionTable.Downscale

/// `tessera downscale IN OUT --fit WxH` (or `IN... FOLDER`): memory-bounded, the fast way.
struct DownscaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downscale",
        abstract: "Downscale images within a memory budget (shrink-on-load, box pre-shrink, Lanczos-3).",
        discussion: """
        Give exactly one of --fit, --fit-pixels, --fit-bytes or --scale. The image is never enlarged \
        unless --upscale is given. OUT's extension picks the format (.png, .jpg, .webp, .bitmap); \
        the output is upright (EXIF orientation applied) and written atomically. Several inputs go \
        into a folder, each as FOLDER/NAME.EXT (EXT: --format, else the input's), one after the \
        other within the budget; one that fails is reported and the others are still written (exit 1).
        """)

    @Argument(help: ArgumentHelp("IN OUT (PNG, JPEG, WebP, GIF in; OUT's extension picks the format), or IN... FOLDER.",
                                 valueName: "paths"))
    var paths: [String] = []

    @Option(help: "The output format for a folder of outputs: png, jpg, webp or bitmap (default: each input's).")
    var format: String?

    @Option(help: ArgumentHelp("Fit within WIDTHxHEIGHT, keeping the aspect ratio, e.g. 1024x1024.", valueName: "WxH"),
            transform: FitBox.init(parsing:))
    var fit: FitBox?

    @Option(help: "Fit within this many pixels, keeping the aspect ratio.")
    var fitPixels: Int?

    @Option(help: "Fit within this many bytes decoded (4 bytes a pixel), e.g. 16MB.")
    var fitBytes: ByteCount?

    // `--max-pixels` and `--max-bytes` before they stopped sharing names with the pipeline's limits
    // (`decode.max-pixels` refuses larger images; these choose a size).
    @Option(name: .customLong("max-pixels"), help: .private)
    var maxPixels: Int?

    @Option(name: .customLong("max-bytes"), help: .private)
    var maxBytes: ByteCount?

    private var pixels: Int? { fitPixels ?? maxPixels }
    private var bytes: ByteCount? { fitBytes ?? maxBytes }

    @Option(help: "Multiply each side by this factor, e.g. 0.5.")
    var scale: Double?

    @Option(name: Downscale.filter.long, help: Downscale.filter.argumentHelp, transform: Downscale.filter.argument)
    var filter = Downscale.filter.defaultValue

    @Flag(name: Downscale.linearLight.long, help: Downscale.linearLight.argumentHelp)
    var linearLight = Downscale.linearLight.defaultValue

    @Flag(help: "Allow the output to be larger than the input.")
    var upscale = false

    @Option(name: Downscale.memoryBudget.long, help: Downscale.memoryBudget.argumentHelp,
            transform: Downscale.memoryBudget.argument)
    var memoryBudget = Downscale.memoryBudget.defaultValue

    @OptionGroup var encode: EncodeOptions

    func validate() throws {
        let given = [fit != nil, fitPixels != nil, maxPixels != nil, fitBytes != nil, maxBytes != nil, scale != nil]
            .filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --fit, --fit-pixels, --fit-bytes, --scale") }
        if let pixels, pixels < 1 { throw ValidationError("--fit-pixels must be at least 1") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number") }
        _ = try FileTargets(paths, format: format)
    }

    private var target: DownscaleTarget {
        if let fit { return .fit(width: fit.width, height: fit.height) }
        if let pixels { return .maxPixels(pixels) }
        if let bytes { return .maxBytes(bytes.bytes) }
        return .scale(scale ?? 1)
    }

    /// The downscale stage's options as a pipeline's `downscale:` with the same values would make them.
    var section: DownscaleStageOptions {
        var section = DownscaleStageOptions()
        section.set(Downscale.filter, filter)
        section.set(Downscale.linearLight, linearLight)
        section.set(Downscale.memoryBudget, memoryBudget)
        return section
    }

    func run() throws {
        for warning in encode.warnings { printError("warning: \(warning)") }
        if maxPixels != nil { printError("warning: '--max-pixels' is deprecated; use '--fit-pixels', which means the same") }
        if maxBytes != nil { printError("warning: '--max-bytes' is deprecated; use '--fit-bytes', which means the same") }
        let options = section
        let target = self.target, upscale = self.upscale
        let encoding = encode.encoding(lossless: false)
        try FileTargets(paths, format: format).forEach { (input, output) throws(TesseraError) in
            // Rows go straight into the encoder: the downscaled image is never whole.
            let result = try EncodedDownscale.run(fileAt: input, filter: options.filter, linearLight: options.linearLight,
                                                  memoryBudget: options.memoryBudget, sizes: { info in
                [target.size(forWidth: info.uprightWidth, height: info.uprightHeight, allowUpscale: upscale)]
            }, encoders: [try encoding.encoder(for: output, stage: .downscale)])
            for warning in result.warnings { printError("warning: \(input): \(warning)") }
            var notes: [String] = []
            let file: EncodedImage
            switch result.outputs.first {
            case .file(let made):
                file = made
            case .image(let image):
                // A ready bitmap, which is written whole.
                file = EncodedImage(bytes: try encoding.encode(image, for: output, stage: .downscale, notes: &notes),
                                    width: image.bitmap.width, height: image.bitmap.height, notes: notes)
            case nil:
                throw TesseraError(.internalFailure, origin: .downscale, reason: "no image was made")
            }
            for note in file.notes { printError("note: \(output): \(note)") }
            try AtomicFile.write(file.bytes, to: output)
            print("\(output): \(file.width)×\(file.height) from \(result.info.uprightWidth)×\(result.info.uprightHeight), \(ByteCount(bytes: file.bytes.count))")
        }
    }
}

/// `--fit WIDTHxHEIGHT`, parsed once.
struct FitBox: Sendable {
    let width: Int
    let height: Int

    init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw ValidationError("--fit takes WIDTHxHEIGHT, e.g. 1024x768")
        }
        (self.width, self.height) = (width, height)
    }
}
