import Encoding
import JobEngine
import TesseraCore

/// Makes encode jobs: a bitmap → the bytes of a PNG or JPEG file.
struct EncodeStage {
    static let version = 1
    let options: EncodeStageOptions

    /// `image` is a job returning a `DecodedSource` (a downscaled variant). `losslessMaster` keeps
    /// WebP variants of a lossless master lossless.
    func job(image: JobKey, format: ImageFormat, subject: String, estimatedBytes: Int,
             losslessMaster: Bool = false) throws(TesseraError) -> Job {
        var webp = options.webp
        webp.lossless = losslessMaster
        let encoder = try ImageEncoders.encoder(for: format, png: options.png, jpeg: options.jpeg, webp: webp)
        var keyOptions = encoder.optionsKey
        keyOptions["format"] = format.rawValue
        let key = JobKey(stage: "encode", version: Self.version, options: keyOptions, inputs: [image.hash])
        return Job(key: key, stage: "encode", subject: subject, dependencies: [image],
                   memoryCost: estimatedBytes * 3, resultMemoryCost: estimatedBytes,
                   priority: StagePriority.encode) { context in
            let source = try context.input(image, as: DecodedSource.self).image
            // The master's ICC profile is carried through so colours mean the same in every variant.
            let bytes = try encoder.encode(source.bitmap, iccProfile: source.info.iccProfile)
            return EncodedVariant(bytes: bytes, width: source.bitmap.width, height: source.bitmap.height,
                                  warnings: source.warnings)
        }
    }
}
