import Encoding
import JobEngine
import TesseraCore

/// Makes encode jobs: a bitmap → the bytes of a PNG or JPEG file.
struct EncodeStage: Stage {
    struct Input: Encodable, Sendable {
        /// The variant's upright pixels.
        let image: Upstream<DecodedSource>
        /// The one format's encoder with this build's settings: only what changes this file.
        let encoding: EncoderSettings
        /// The file it becomes, for messages.
        @Unkeyed var subject: String
        @Unkeyed var estimatedBytes: Int
    }
    typealias Output = EncodedVariant
    static let kind = JobKind.encode
    static let version = 1
    static let priority = StagePriority.encode
    /// The build's encoder settings, from which each job declares its one format's.
    let settings: EncodeStageOptions

    init(options: EncodeStageOptions) { settings = options }

    /// The encoder of `format` with this build's options. `losslessMaster` keeps WebP variants of
    /// a lossless master lossless. GIF and carried formats throw, saying why they are not encoded.
    func encoding(for format: ImageFormat, losslessMaster: Bool = false) throws(TesseraError) -> EncoderSettings {
        var webp = settings.webp
        webp.lossless = losslessMaster
        return try ImageEncoders.settings(for: format, png: settings.png, jpeg: settings.jpeg, webp: webp)
    }

    func job(image: Upstream<DecodedSource>, format: ImageFormat, subject: String, estimatedBytes: Int,
             losslessMaster: Bool = false) throws(TesseraError) -> Job<EncodedVariant> {
        job(Input(image: image, encoding: try encoding(for: format, losslessMaster: losslessMaster), subject: subject,
                  estimatedBytes: estimatedBytes))
    }

    func subject(of input: Input) -> String { input.subject }

    func memoryCost(of input: Input) -> JobMemory {
        JobMemory(running: input.estimatedBytes * 3, result: input.estimatedBytes)
    }

    func run(_ input: Input, context: JobContext) throws -> EncodedVariant {
        try input.encoding.encode(input.image.value(in: context))
    }
}

extension EncoderSettings {
    /// A whole bitmap's file, carrying the master's ICC profile so that colours mean the same in
    /// every variant.
    func encode(_ source: DecodedSource) throws(TesseraError) -> EncodedVariant {
        let file = try encoder.encodedImage(source.image.bitmap, iccProfile: source.image.info.iccProfile)
        return EncodedVariant(bytes: file.bytes, width: file.width, height: file.height,
                              warnings: source.notes + file.notes.map { StageNote(.encode, $0) })
    }
}
