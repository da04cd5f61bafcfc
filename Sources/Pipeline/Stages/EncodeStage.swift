import Encoding
import JobEngine
import TesseraCore

/// Makes encode jobs: a bitmap → the bytes of a PNG or JPEG file.
struct EncodeStage: Stage {
    typealias Output = EncodedVariant
    static let name = StageName.encode
    static let version = 1
    let options: EncodeStageOptions
    /// Each format's encoder and key options, made once for every job of the build.
    private let encoders: [Choice: (encoder: any ImageEncoder, keyOptions: [String: String])]

    private struct Choice: Hashable {
        let format: ImageFormat
        let lossless: Bool
    }

    init(options: EncodeStageOptions) {
        self.options = options
        var encoders: [Choice: (encoder: any ImageEncoder, keyOptions: [String: String])] = [:]
        for format in [ImageFormat.png, .jpeg, .webp] {
            for lossless in [false, true] {
                var webp = options.webp
                webp.lossless = lossless
                guard let encoder = try? ImageEncoders.encoder(for: format, png: options.png, jpeg: options.jpeg, webp: webp)
                else { continue }
                var keyOptions = encoder.optionsKey
                keyOptions["format"] = format.rawValue
                encoders[Choice(format: format, lossless: lossless)] = (encoder, keyOptions)
            }
        }
        self.encoders = encoders
    }

    /// The encoder of `format` with this build's options, and what it adds to a job key.
    /// `losslessMaster` keeps WebP variants of a lossless master lossless.
    func encoding(for format: ImageFormat, losslessMaster: Bool = false) throws(TesseraError) -> ScaleEncoding {
        if let made = encoders[Choice(format: format, lossless: losslessMaster)] {
            return ScaleEncoding(encoder: made.encoder, keyOptions: made.keyOptions)
        }
        // GIF and carried formats: the encoder lookup says why they are not encoded.
        var webp = options.webp
        webp.lossless = losslessMaster
        let encoder = try ImageEncoders.encoder(for: format, png: options.png, jpeg: options.jpeg, webp: webp)
        return ScaleEncoding(encoder: encoder, keyOptions: encoder.optionsKey.merging(["format": format.rawValue]) { $1 })
    }

    /// `image` gives the variant's upright pixels. `losslessMaster` keeps WebP variants of a
    /// lossless master lossless.
    func job(image: PixelSource, format: ImageFormat, subject: String, estimatedBytes: Int,
             losslessMaster: Bool = false) throws(TesseraError) -> Job<EncodedVariant> {
        let prepared = try encoding(for: format, losslessMaster: losslessMaster)
        var keyOptions = prepared.keyOptions
        if case .scaled(_, let scale) = image { keyOptions["scale"] = scale.description }
        let key = Self.key(options: keyOptions, inputs: [image.key.hash])
        return job(key: key, subject: subject, dependencies: [image.key],
                   memoryCost: estimatedBytes * 3, resultMemoryCost: estimatedBytes,
                   priority: StagePriority.encode) { context in
            try prepared.encode(image.resolve(context))
        }
    }
}

/// One format's encoder as a build configured it, and the options it adds to a job key.
struct ScaleEncoding: Sendable {
    let encoder: any ImageEncoder
    let keyOptions: [String: String]

    /// A whole bitmap's file, carrying the master's ICC profile so that colours mean the same in
    /// every variant.
    func encode(_ source: DecodedSource) throws(TesseraError) -> EncodedVariant {
        let file = try encoder.encodedImage(source.image.bitmap, iccProfile: source.image.info.iccProfile)
        return EncodedVariant(bytes: file.bytes, width: file.width, height: file.height,
                              warnings: source.notes + file.notes.map { StageNote(.encode, $0) })
    }
}
