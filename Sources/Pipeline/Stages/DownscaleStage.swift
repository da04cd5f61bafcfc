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
    struct Input: Encodable, Sendable {
        let source: SourceFacts
        /// The master's scale, and for a master drawn into one slot, that slot's side in points:
        /// together with the targets, what sizes the pass makes.
        let masterScale: DisplayScale
        let slotPoints: Double?
        let targets: [DisplayScale]
        /// For each target, the encoder its rows go to in the pass; nil hands on its bitmap.
        let encodings: [EncoderSettings?]
    }
    typealias Output = ScaledVariants
    static let kind = JobKind.downscale
    static let version = 3
    static let priority = StagePriority.downscale
    let options: Options
    /// Working memory a single downscale may use for its band buffers: how the pass runs, not
    /// what it makes.
    let memoryBudget: Int

    struct Options: Codable, Hashable, Sendable {
        let filter: ResamplingFilter
        let linearLight: Bool
        let maxPixels: Int
    }

    init(options: DownscaleStageOptions, decodeOptions: DecodeStageOptions, memoryBudget: Int) {
        self.options = Options(filter: options.filter, linearLight: options.linearLight, maxPixels: decodeOptions.maxPixels)
        self.memoryBudget = memoryBudget
    }

    func job(source: SourceFacts, master: SourceImage, targets: [DisplayScale],
             encodings: [DisplayScale: EncoderSettings] = [:]) -> Job<ScaledVariants> {
        job(Input(source: source, masterScale: master.scale, slotPoints: master.slotPoints, targets: targets,
                  encodings: targets.map { encodings[$0] }))
    }

    func subject(of input: Input) -> String { input.source.path }

    func memoryCost(of input: Input) -> JobMemory {
        let outputs = input.source.info.map { sizes(input, $0) } ?? []
        let (running, result) = memoryCosts(source: input.source, outputs: outputs, targets: input.targets,
                                            encoded: Set(zip(input.targets, input.encodings).filter { $0.1 != nil }.map(\.0)))
        return JobMemory(running: running, result: result)
    }

    /// Each target's upright size, from the master's.
    private func sizes(_ input: Input, _ info: ImageInfo) -> [(width: Int, height: Int)] {
        input.targets.map {
            VariantGeometry.size(masterScale: input.masterScale, slotPoints: input.slotPoints,
                                 width: info.uprightWidth, height: info.uprightHeight, targetScale: $0)
        }
    }

    func run(_ input: Input, context: JobContext) throws -> ScaledVariants {
        let decode = DecodeOptions(maxPixels: options.maxPixels, checkpoint: { () throws(TesseraError) in
            try context.checkCancellation()
        })
        let run = try EncodedDownscale.run(fileAt: input.source.path, options: decode, filter: options.filter,
                                           linearLight: options.linearLight, memoryBudget: memoryBudget,
                                           sizes: { info in sizes(input, info) }, encoders: input.encodings.map { $0?.encoder })
        let decodeNotes = run.warnings.map { StageNote(.decode, $0) }
        var variants = ScaledVariants(master: MasterFacts(info: run.info, warnings: run.warnings))
        for (scale, output) in zip(input.targets, run.outputs) {
            switch output {
            case .file(let file):
                variants.encoded[scale] = EncodedVariant(bytes: file.bytes, width: file.width, height: file.height,
                                                         warnings: decodeNotes + file.notes.map { StageNote(.encode, $0) })
            case .image(let image):
                variants.images[scale] = DecodedSource(path: input.source.path, image: image)
            }
        }
        return variants
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
