import Encoding
import JobEngine
import TesseraCore

/// Makes encode jobs: a bitmap → the bytes of a PNG or JPEG file.
struct EncodeStage: BuildStage {
    static let version = 1
    let options: EncodeStageOptions

    /// `image` gives the variant's upright pixels. `losslessMaster` keeps WebP variants of a
    /// lossless master lossless.
    func job(image: PixelSource, format: ImageFormat, subject: String, estimatedBytes: Int,
             losslessMaster: Bool = false) throws(TesseraError) -> Job {
        var webp = options.webp
        webp.lossless = losslessMaster
        let encoder = try ImageEncoders.encoder(for: format, png: options.png, jpeg: options.jpeg, webp: webp)
        var keyOptions = encoder.optionsKey
        keyOptions["format"] = format.rawValue
        if case .scaled(_, let scale) = image { keyOptions["scale"] = scale.description }
        let key = Self.key(.encode, options: keyOptions, inputs: [image.key.hash])
        return Job(key: key, stage: StageName.encode.rawValue, subject: subject, dependencies: [image.key],
                   memoryCost: estimatedBytes * 3, resultMemoryCost: estimatedBytes,
                   priority: StagePriority.encode) { context in
            let source = try image.resolve(context).image
            // The master's ICC profile is carried through so colours mean the same in every variant.
            var notes: [String] = []
            let bytes = try encoder.encode(source.bitmap, iccProfile: source.info.iccProfile, notes: &notes)
            return EncodedVariant(bytes: bytes, width: source.bitmap.width, height: source.bitmap.height,
                                  warnings: source.warnings + notes)
        }
    }
}
