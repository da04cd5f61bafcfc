import Downscaling
import JobEngine
import Slicing
import TesseraCore

/// Makes downscale jobs: a decoded master → the same image at a smaller display scale, keeping the
/// master's ICC profile and warnings so later stages need not hold on to the master.
struct DownscaleStage {
    static let version = 1
    let options: DownscaleStageOptions

    func job(decode: JobKey, source: SourceFacts, masterScale: DisplayScale, targetScale: DisplayScale) -> Job {
        let key = JobKey(stage: "downscale", version: Self.version,
                         options: ["filter": options.filter.rawValue,
                                   "ratio": "\(targetScale.factor)/\(masterScale.factor)"],
                         inputs: [decode.hash])
        let target = source.info.map {
            VariantGeometry.size(masterWidth: $0.width, masterHeight: $0.height, masterScale: masterScale.factor,
                                 targetScale: targetScale.factor)
        } ?? (width: 1, height: 1)
        // The whole-image resampler holds a float buffer of output width × input height, then the output.
        let intermediate = target.width * 16 * (source.info?.height ?? 1)
        let output = target.width * target.height * 4
        let resampler = Resampler(filter: options.filter)
        return Job(key: key, stage: "downscale", subject: "\(source.path) → \(targetScale)", dependencies: [decode],
                   memoryCost: intermediate + output, resultMemoryCost: output,
                   priority: StagePriority.downscale) { context in
            let master = try context.input(decode, as: DecodedSource.self).image
            let size = VariantGeometry.size(masterWidth: master.bitmap.width, masterHeight: master.bitmap.height,
                                            masterScale: masterScale.factor, targetScale: targetScale.factor)
            try context.checkCancellation()
            var scaled = master
            scaled.bitmap = try resampler.resize(master.bitmap, width: size.width, height: size.height)
            return DecodedSource(path: source.path, image: scaled)
        }
    }
}
