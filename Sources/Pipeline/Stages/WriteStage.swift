import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// An encoded (generated) variant → its file on disk, written atomically, as the manifest lists it.
struct WriteStage: Stage {
    struct Input: Encodable, Sendable {
        /// An encode job's file, one scale a downscale pass encoded, or one scale of an animation pass.
        let encoded: Upstream<EncodedVariant>
        let listing: VariantListing
    }
    typealias Output = WrittenVariant
    static let kind = JobKind.write
    static let version = 1
    static let priority = StagePriority.write
    let outputFolder: String

    func job(encoded: Upstream<EncodedVariant>, variant: PlannedVariant) -> Job<WrittenVariant> {
        job(Input(encoded: encoded, listing: VariantListing(variant)))
    }

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.listing.path, under: outputFolder) }
    func cacheRoot(for input: Input) -> String? { outputFolder }
    func cachedFiles(for input: Input) -> [String]? { [input.listing.path] }

    func run(_ input: Input, context: JobContext) throws -> WrittenVariant {
        let file = try input.encoded.value(in: context)
        try context.checkCancellation()
        try AtomicFile.write(file.bytes, to: subject(of: input), flushing: false)
        return input.listing.written(width: file.width, height: file.height, bytes: file.bytes.count,
                                     sha256: ContentHash.of(file.bytes), generated: true, warnings: file.warnings)
    }
}
