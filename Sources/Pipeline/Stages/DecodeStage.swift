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

/// Source file → its decoded pixels (`DecodedSource`).
struct DecodeStage: Stage {
    typealias Output = DecodedSource
    static let name = StageName.decode
    static let version = 1
    let options: DecodeStageOptions

    func job(for source: SourceFacts) -> Job<DecodedSource> {
        let key = Self.key(options: ["max-pixels": String(options.maxPixels)], inputs: [source.contentHash])
        // Unknown header (it will fail to decode anyway): assume a PNG-like 4:1 expansion.
        let decoded = source.info?.decodedByteCount ?? source.fileSize * 4
        let maxPixels = options.maxPixels
        return job(key: key, subject: source.path, memoryCost: source.fileSize + decoded, resultMemoryCost: decoded,
                   priority: StagePriority.decode) { context in
            let bytes = try SourceBytes(contentsOfFile: source.path)
            let decodeOptions = DecodeOptions(maxPixels: maxPixels, checkpoint: { () throws(TesseraError) in
                try context.checkCancellation()
            })
            return DecodedSource(path: source.path, image: try ImageDecoders.decode(bytes, options: decodeOptions))
        }
    }
}
