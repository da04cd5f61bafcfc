import Decoding
import JobEngine
import TesseraCore

/// What a full pass over a source file showed: its header, its upright size and the warnings
/// decoding it raised.
struct MasterFacts: Sendable {
    let info: ImageInfo
    let width: Int
    let height: Int
    let warnings: [String]

    init(info: ImageInfo, warnings: [String]) {
        self.init(info: info, width: info.uprightWidth, height: info.uprightHeight, warnings: warnings)
    }

    init(info: ImageInfo, width: Int, height: Int, warnings: [String]) {
        self.info = info
        self.width = width
        self.height = height
        self.warnings = warnings
    }
}

/// The job whose pass over a provided file shows it is a valid image before it is copied.
///
/// A downscale of the same file decodes every row of it anyway (PNG to its end chunk, JPEG's
/// whole entropy-coded data, even when the DCT scales), so when the asset's smaller scales are
/// made from this file the copy waits on that pass instead of decoding the file a second time.
enum MasterCheck {
    case decoded(JobRef<DecodedSource>)
    case downscaled(JobRef<ScaledVariants>)

    var key: JobKey {
        switch self {
        case .decoded(let job): job.key
        case .downscaled(let job): job.key
        }
    }

    func facts(_ context: JobContext) throws(TesseraError) -> MasterFacts {
        switch self {
        case .decoded(let job):
            let image = try context.input(job).image
            return MasterFacts(info: image.info, width: image.bitmap.width, height: image.bitmap.height,
                               warnings: image.warnings)
        case .downscaled(let job):
            return try context.input(job).master
        }
    }
}
