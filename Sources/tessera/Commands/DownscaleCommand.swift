import ArgumentParser
import Decoding
import Downscaling
import Encoding
import Foundation
import Pipeline
import ReadyBitmaps
import TesseraCore

/// `tessera downscale IN OUT --fit WxH`: one image, memory-bounded, the fast way.
struct DownscaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downscale",
        abstract: "Downscale one image within a memory budget (shrink-on-load, box pre-shrink, Lanczos-3).",
        discussion: """
        Give exactly one of --fit, --max-pixels, --max-bytes or --scale. The image is never enlarged \
        unless --upscale is given. OUT's extension picks the format (.png, .jpg, .webp, .bitmap); \
        the output is upright (EXIF orientation applied) and written atomically.
        """)

    @Argument(help: "The image to read (PNG, JPEG, WebP, GIF).")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "Fit within WIDTHxHEIGHT, keeping the aspect ratio, e.g. 1024x1024.")
    var fit: String?

    @Option(help: "At most this many pixels, keeping the aspect ratio.")
    var maxPixels: Int?

    @Option(help: "At most this many bytes decoded (4 bytes a pixel), e.g. 16MB.")
    var maxBytes: ByteCount?

    @Option(help: "Multiply each side by this factor, e.g. 0.5.")
    var scale: Double?

    @Option(help: "Resampling filter: \(ResamplingFilter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var filter: ResamplingFilter = .lanczos3

    @Flag(help: "Filter in linear light instead of sRGB values.")
    var linearLight = false

    @Flag(help: "Allow the output to be larger than the input.")
    var upscale = false

    @Option(help: "Working-memory budget for the band buffers, e.g. 64MB.")
    var memoryBudget: ByteCount = ByteCount(bytes: 256 << 20)

    @Option(help: "JPEG or WebP quality, 1–100.")
    var quality: Int?

    @OptionGroup var png: PNGOptions

    func validate() throws {
        let given = [fit != nil, maxPixels != nil, maxBytes != nil, scale != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --fit, --max-pixels, --max-bytes, --scale") }
        if let fit, parseBox(fit) == nil { throw ValidationError("--fit takes WIDTHxHEIGHT, e.g. 1024x768") }
        if let maxPixels, maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number") }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1–100") }
    }

    private func parseBox(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    private var target: DownscaleTarget {
        if let fit, let box = parseBox(fit) { return .fit(width: box.0, height: box.1) }
        if let maxPixels { return .maxPixels(maxPixels) }
        if let maxBytes { return .maxBytes(maxBytes.bytes) }
        return .scale(scale ?? 1)
    }

    func run() throws {
        do {
            let target = self.target, upscale = self.upscale
            let result = try StreamingDownscale.run(fileAt: input, filter: filter, linearLight: linearLight,
                                                    memoryBudget: memoryBudget.bytes) { info in
                [target.size(forWidth: info.uprightWidth, height: info.uprightHeight, allowUpscale: upscale)]
            }
            let image = result.images[0]
            for warning in image.warnings { printError("warning: \(input): \(warning)") }
            var notes: [String] = []
            let bytes = try OutputEncoding(quality: quality, png: png.encoder)
                .encode(image, for: output, stage: .downscale, notes: &notes)
            for note in notes { printError("note: \(output): \(note)") }
            try AtomicFile.write(bytes, to: output)
            print("\(output): \(image.bitmap.width)×\(image.bitmap.height) from \(result.info.uprightWidth)×\(result.info.uprightHeight), \(ByteCount(bytes: bytes.count))")
        } catch {
            throw fail(error)
        }
    }
}

extension ResamplingFilter: ExpressibleByArgument {}
