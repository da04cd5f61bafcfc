import Decoding
import Delivery
import JobEngine
import Manifests
import TesseraCore

/// What a decode job hands on: the image and where it came from.
struct DecodedSource: Sendable {
    let path: String
    let image: DecodedImage
    /// Whose warnings `image` carries: the decoder's, or the renderer's for a drawn vector.
    var madeBy = ProblemOrigin.decode

    /// The decoder's (or renderer's) warnings, labelled with that stage.
    var notes: [StageNote] { image.warnings.map { StageNote(madeBy, $0) } }
}

/// What an encode job hands on: the file's bytes and its pixel size.
struct EncodedVariant: Sendable {
    let bytes: [UInt8]
    let width: Int
    let height: Int
    /// Warnings from decoding the master and encoding the variant, passed along for the build report.
    let warnings: [StageNote]
}

/// A warning a job's result carries to the build report, with the stage that raised it.
struct StageNote: Sendable, Codable, Hashable {
    let stage: ProblemOrigin
    let text: String

    init(_ stage: ProblemOrigin, _ text: String) {
        self.stage = stage
        self.text = text
    }
}

/// A variant file now on disk, as the manifest lists it: what a write, copy or carry job returns.
public struct WrittenVariant: CachedOutput {
    public let asset: AssetID
    public let entry: VariantEntry
    /// Warnings from decoding its source, for the build report.
    let warnings: [StageNote]

    public var files: [String] { [entry.path] }
    public var knownHashes: [String: ContentHash] { [entry.path: entry.sha256] }
}

/// Stage priorities: later stages first, so that each asset's pipeline drains (and its decoded
/// bitmap is released) before the scheduler decodes more.
enum StagePriority {
    static let decode = 0
    static let downscale = 10
    static let encode = 20
    static let write = 30
    static let manifest = 40
}
