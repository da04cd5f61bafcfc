import Decoding
import Downscaling
import Encoding
import JobEngine
import Slicing
import StreamingDownscaling
import TesseraCore

/// Makes downscale jobs: one streaming pass over an asset's master yields every smaller scale the
/// asset needs (its 1x and 2x from its 3x), each upright and carrying the master's ICC profile and
/// warnings, within the job's memory budget.
///
/// A scale named in `encodings` is encoded in the pass: its rows go straight into a row encoder
/// (`ImageRowEncoder`) as the downscaler finishes them, so that its bitmap is never whole (a 2x
/// of a 4000 px master is 21 MB), and the job hands on the file instead. The file is byte for
/// byte what the encode stage would make of the bitmap; a scale whose encoder cannot take rows,
/// or whose rows did not fit what it assumed, is made whole and encoded as the encode stage does.
struct DownscaleStage: Stage {
    typealias Output = ScaledVariants
    static let name = StageName.downscale
    static let version = 3
    let options: DownscaleStageOptions
    let decodeOptions: DecodeStageOptions
    /// Working memory a single downscale may use for its band buffers.
    let memoryBudget: Int

    func job(source: SourceFacts, master: SourceImage, targets: [DisplayScale],
             encodings: [DisplayScale: ScaleEncoding] = [:]) -> Job<ScaledVariants> {
        // A slot master's sizes follow its points, not its scale: the key says which.
        let ratios = targets.map { target in
            master.slotPoints.map { "\($0)pt@\(target.factor)" } ?? "\(target.factor)/\(master.scale.factor)"
        }.joined(separator: ",")
        var keyOptions = ["filter": options.filter.rawValue, "ratios": ratios,
                          "linear-light": String(options.linearLight), "max-pixels": String(decodeOptions.maxPixels)]
        for (scale, encoding) in encodings {
            keyOptions["encode@\(scale)"] = encoding.keyOptions.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        }
        let key = Self.key(options: keyOptions, inputs: [source.contentHash])
        let sizes: @Sendable (ImageInfo) -> [(width: Int, height: Int)] = { info in
            targets.map { VariantGeometry.size(of: master, width: info.uprightWidth, height: info.uprightHeight, targetScale: $0) }
        }
        let (cost, result) = memoryCosts(source: source, outputs: source.info.map(sizes) ?? [], targets: targets,
                                         encoded: Set(encodings.keys))
        let filter = options.filter, linearLight = options.linearLight, maxPixels = decodeOptions.maxPixels
        let budget = memoryBudget
        return job(key: key, subject: source.path, memoryCost: cost, resultMemoryCost: result,
                   priority: StagePriority.downscale) { context in
            let decode = DecodeOptions(maxPixels: maxPixels, checkpoint: { () throws(TesseraError) in
                try context.checkCancellation()
            })
            let run = try EncodedDownscale.run(fileAt: source.path, options: decode, filter: filter,
                                               linearLight: linearLight, memoryBudget: budget,
                                               sizes: { info in sizes(info) }, encoders: targets.map { encodings[$0]?.encoder })
            let decodeNotes = run.warnings.map { StageNote(.decode, $0) }
            var variants = ScaledVariants(master: MasterFacts(info: run.info, warnings: run.warnings))
            for (scale, output) in zip(targets, run.outputs) {
                switch output {
                case .file(let file):
                    variants.encoded[scale] = EncodedVariant(bytes: file.bytes, width: file.width, height: file.height,
                                                             warnings: decodeNotes + file.notes.map { StageNote(.encode, $0) })
                case .image(let image):
                    variants.images[scale] = DecodedSource(path: source.path, image: image)
                }
            }
            return variants
        }
    }

    /// What the pass holds while it runs (its band, by the model the run sizes it with, outputs in
    /// stored orientation, plus each encoder) and what it hands on (an encoded scale's file, a
    /// fraction of its bitmap; a bitmap whole).
    private func memoryCosts(source: SourceFacts, outputs: [(width: Int, height: Int)], targets: [DisplayScale],
                             encoded: Set<DisplayScale>) -> (running: Int, result: Int) {
        let band = source.info.map { info in
            DownscaleMemory.planned(
                info: info, fileSize: source.fileSize,
                outputs: outputs.map { info.orientation.swapsDimensions ? ($0.height, $0.width) : ($0.width, $0.height) },
                filter: options.filter, memoryBudget: memoryBudget).peakBytes
        } ?? source.fileSize * 4
        // An encoder holds about its bitmap's size while the pass runs (PNG's packed rows,
        // libjpeg's coefficients).
        var result = 0, encoders = 0
        for (scale, size) in zip(targets, outputs) {
            let bitmap = size.width * size.height * 4
            if encoded.contains(scale) {
                result += bitmap / 4
                encoders += bitmap
            } else {
                result += bitmap
            }
        }
        return (band + encoders, result)
    }
}

/// The smaller scales one downscale pass made, and what the pass learnt about the master itself:
/// each scale as a bitmap, or, when it was encoded in the pass, as its file.
struct ScaledVariants: Sendable {
    var images: [DisplayScale: DecodedSource] = [:]
    var encoded: [DisplayScale: EncodedVariant] = [:]
    let master: MasterFacts
}
