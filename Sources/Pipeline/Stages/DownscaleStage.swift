import Decoding
import Downscaling
import JobEngine
import Slicing
import StreamingDownscaling
import TesseraCore

/// Makes downscale jobs: one streaming pass over an asset's master yields every smaller scale the
/// asset needs (its 1x and 2x from its 3x), each upright and carrying the master's ICC profile and
/// warnings, within the job's memory budget.
struct DownscaleStage: BuildStage {
    static let version = 2
    let options: DownscaleStageOptions
    let decodeOptions: DecodeStageOptions
    /// Working memory a single downscale may use for its band buffers.
    let memoryBudget: Int

    func job(source: SourceFacts, master: SourceImage, targets: [DisplayScale]) -> Job {
        // A slot master's sizes follow its points, not its scale: the key says which.
        let ratios = targets.map { target in
            master.slotPoints.map { "\($0)pt@\(target.factor)" } ?? "\(target.factor)/\(master.scale.factor)"
        }.joined(separator: ",")
        let key = Self.key(.downscale, options: ["filter": options.filter.rawValue, "ratios": ratios,
                                   "linear-light": String(options.linearLight),
                                   "max-pixels": String(decodeOptions.maxPixels)],
                         inputs: [source.contentHash])
        let sizes: @Sendable (ImageInfo) -> [(width: Int, height: Int)] = { info in
            targets.map { VariantGeometry.size(of: master, width: info.uprightWidth, height: info.uprightHeight, targetScale: $0) }
        }
        let outputs = source.info.map(sizes) ?? []
        // The same model the run sizes its band with (outputs in stored orientation).
        let cost = source.info.map { info in
            DownscaleMemory.planned(
                info: info, fileSize: source.fileSize,
                outputs: outputs.map { info.orientation.swapsDimensions ? ($0.height, $0.width) : ($0.width, $0.height) },
                filter: options.filter, memoryBudget: memoryBudget).peakBytes
        } ?? source.fileSize * 4
        let result = outputs.reduce(0) { $0 + $1.width * $1.height * 4 }
        let filter = options.filter, linearLight = options.linearLight, maxPixels = decodeOptions.maxPixels
        let budget = memoryBudget
        return Job(key: key, stage: StageName.downscale, subject: source.path, memoryCost: cost, resultMemoryCost: result,
                   priority: StagePriority.downscale) { context in
            let decode = DecodeOptions(maxPixels: maxPixels, checkpoint: { () throws(TesseraError) in
                try context.checkCancellation()
            })
            let run = try StreamingDownscale.run(fileAt: source.path, options: decode, filter: filter,
                                                 linearLight: linearLight, memoryBudget: budget) { info in sizes(info) }
            var images: [DisplayScale: DecodedSource] = [:]
            for (scale, image) in zip(targets, run.images) {
                images[scale] = DecodedSource(path: source.path, image: image)
            }
            return ScaledVariants(images: images, master: MasterFacts(info: run.info, warnings: run.warnings))
        }
    }
}

/// The smaller scales one downscale pass made, and what the pass learnt about the master itself.
struct ScaledVariants: Sendable {
    let images: [DisplayScale: DecodedSource]
    let master: MasterFacts
}

/// Where a later stage gets a variant's upright pixels: a full decode, or one scale of a downscale pass.
enum PixelSource {
    case decoded(JobKey)
    case scaled(JobKey, DisplayScale)

    var key: JobKey {
        switch self {
        case .decoded(let key), .scaled(let key, _): key
        }
    }

    func resolve(_ context: JobContext) throws(TesseraError) -> DecodedSource {
        switch self {
        case .decoded(let key):
            return try context.input(key, as: DecodedSource.self)
        case .scaled(let key, let scale):
            guard let image = try context.input(key, as: ScaledVariants.self).images[scale] else {
                throw TesseraError(.internalFailure, stage: StageName.downscale, reason: "no \(scale) image was made")
            }
            return image
        }
    }
}
