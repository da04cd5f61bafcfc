import Decoding
import Downscaling
import JobEngine
import Slicing
import StreamingDownscaling
import TesseraCore

/// Makes downscale jobs: one streaming pass over an asset's master yields every smaller scale the
/// asset needs (its 1x and 2x from its 3x), each upright and carrying the master's ICC profile and
/// warnings, within the job's memory budget.
struct DownscaleStage: Stage {
    typealias Output = ScaledVariants
    static let name = StageName.downscale
    static let version = 2
    let options: DownscaleStageOptions
    let decodeOptions: DecodeStageOptions
    /// Working memory a single downscale may use for its band buffers.
    let memoryBudget: Int

    func job(source: SourceFacts, master: SourceImage, targets: [DisplayScale]) -> Job<ScaledVariants> {
        // A slot master's sizes follow its points, not its scale: the key says which.
        let ratios = targets.map { target in
            master.slotPoints.map { "\($0)pt@\(target.factor)" } ?? "\(target.factor)/\(master.scale.factor)"
        }.joined(separator: ",")
        let key = Self.key(options: ["filter": options.filter.rawValue, "ratios": ratios,
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
        return job(key: key, subject: source.path, memoryCost: cost, resultMemoryCost: result,
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
