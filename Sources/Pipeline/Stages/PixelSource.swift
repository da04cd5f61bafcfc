import JobEngine
import Slicing
import TesseraCore

/// Where a later stage gets a variant's upright pixels: a full decode, or one scale of a downscale pass.
enum PixelSource {
    case decoded(JobRef<DecodedSource>)
    case scaled(JobRef<ScaledVariants>, DisplayScale)

    var key: JobKey {
        switch self {
        case .decoded(let job): job.key
        case .scaled(let job, _): job.key
        }
    }

    func resolve(_ context: JobContext) throws(TesseraError) -> DecodedSource {
        switch self {
        case .decoded(let job):
            return try context.input(job)
        case .scaled(let job, let scale):
            guard let image = try context.input(job).images[scale] else {
                throw TesseraError(.internalFailure, stage: StageName.downscale, reason: "no \(scale) image was made")
            }
            return image
        }
    }
}
