import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// An encoded (generated) variant → its file on disk, written atomically, as the manifest lists it.
struct WriteStage: Stage {
    typealias Output = WrittenVariant
    static let name = StageName.write
    static let version = 1
    let outputFolder: String

    /// Where a write job's bytes come from: an encode job, one scale encoded in a downscale pass,
    /// or one scale of an animation pass.
    enum Encoded {
        case still(JobRef<EncodedVariant>)
        case downscaled(JobRef<ScaledVariants>, DisplayScale)
        case animated(JobRef<AnimatedVariants>, DisplayScale)

        var key: JobKey {
            switch self {
            case .still(let job): job.key
            case .downscaled(let job, _): job.key
            case .animated(let job, _): job.key
            }
        }

        func resolve(_ context: JobContext) throws(TesseraError) -> EncodedVariant {
            switch self {
            case .still(let job):
                return try context.input(job)
            case .downscaled(let job, let scale):
                guard let one = try context.input(job).encoded[scale] else {
                    throw TesseraError(.internalFailure, stage: .write, reason: "no \(scale) file was made")
                }
                return one
            case .animated(let job, let scale):
                guard let one = try context.input(job).variants[scale] else {
                    throw TesseraError(.internalFailure, stage: .write, reason: "no \(scale) animation was made")
                }
                return one
            }
        }
    }

    func job(encoded: Encoded, variant: PlannedVariant) -> Job<WrittenVariant> {
        let key = Self.key(options: ["path": variant.outputPath, "scale": variant.scale.description],
                           inputs: [encoded.key.hash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return job(key: key, subject: target, dependencies: [encoded.key], priority: StagePriority.write) { context in
            let file = try encoded.resolve(context)
            try context.checkCancellation()
            try AtomicFile.write(file.bytes, to: target, flushing: false)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: variant.format, width: file.width,
                height: file.height, bytes: file.bytes.count, sha256: ContentHash.of(file.bytes), generated: true,
                source: variant.source.relativePath), warnings: file.warnings)
        }
        .cached(under: outputFolder, salt: VariantCaching.salt(variant))
    }
}

/// What a variant's cache entry depends on beyond its job key.
enum VariantCaching {
    /// The source's name is in the manifest entry but not in the key (identical bytes under two
    /// names make one key), so it salts the cache key.
    static func salt(_ variant: PlannedVariant) -> [String] {
        ["source=\(variant.source.relativePath)"]
    }
}
