import Decoding
import JobEngine
import Rasterizing
import TesseraCore

/// Source file → its decoded pixels (`DecodedSource`).
struct DecodeStage: Stage {
    typealias Input = SourceFacts
    typealias Output = DecodedSource
    static let kind = JobKind.decode
    static let version = 1
    static let priority = StagePriority.decode
    let options: Options

    struct Options: Codable, Hashable, Sendable {
        /// Images with more pixels are refused before any is decoded.
        let maxPixels: Int
    }

    init(options: DecodeStageOptions) {
        self.options = Options(maxPixels: options.maxPixels)
    }

    func subject(of source: SourceFacts) -> String { source.path }

    func memoryCost(of source: SourceFacts) -> JobMemory {
        // Unknown header (it will fail to decode anyway): assume a PNG-like 4:1 expansion.
        let decoded = source.info?.decodedByteCount ?? source.fileSize * 4
        return JobMemory(running: source.fileSize + decoded, result: decoded)
    }

    func run(_ source: SourceFacts, context: JobContext) throws -> DecodedSource {
        let bytes = try SourceBytes(contentsOfFile: source.path)
        let decodeOptions = DecodeOptions(maxPixels: options.maxPixels, checkpoint: { () throws(TesseraError) in
            try context.checkCancellation()
        })
        return DecodedSource(path: source.path, image: try ImageDecoders.decode(bytes, options: decodeOptions))
    }
}
