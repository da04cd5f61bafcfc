import Decoding
import JobEngine
import Rasterizing
import TesseraCore

/// Facts about a source file gathered while planning: its content hash and, when its header
/// reads, its size, which the decode job's memory estimate comes from.
struct SourceFacts: Sendable {
    let path: String
    let fileSize: Int
    let contentHash: ContentHash
    let info: ImageInfo?
    /// For a PDF or SVG the build draws: its first page's size in points, which the render's
    /// memory is budgeted from.
    var page: PageSize? = nil
}

extension SourceFacts: Encodable {
    /// A source is keyed by its content: the facts about it follow from its bytes.
    func encode(to encoder: any Encoder) throws {
        try SourceFile(path: path, contentHash: contentHash).encode(to: encoder)
    }
}

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
