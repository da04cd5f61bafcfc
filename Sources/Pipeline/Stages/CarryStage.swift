import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// A file Tessera does not decode (PDF, SVG, HEIC) → carried byte for byte; its pixel size is
/// unknown to Tessera and listed as 0 × 0.
struct CarryStage: Stage {
    struct Input: Encodable, Sendable {
        let source: SourceFacts
        let listing: VariantListing
    }
    typealias Output = WrittenVariant
    static let kind = JobKind.carry
    static let version = 1
    static let priority = StagePriority.write
    let outputFolder: String

    func job(source: SourceFacts, variant: PlannedVariant) -> Job<WrittenVariant> {
        job(Input(source: source, listing: VariantListing(variant)))
    }

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.listing.path, under: outputFolder) }
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: min(input.source.fileSize, SourceCopy.chunk)) }
    func cacheRoot(for input: Input) -> String? { outputFolder }
    func cachedFiles(for input: Input) -> [String]? { [input.listing.path] }

    func run(_ input: Input, context: JobContext) throws -> WrittenVariant {
        // The copy stage's check and message: a carried file that changed is refused the same way.
        let (copy, hash) = try SourceCopy.copy(input.source, to: subject(of: input), stage: ProblemOrigin(CopyStage.kind), context: context)
        return input.listing.written(width: 0, height: 0, bytes: copy, sha256: hash, generated: false, warnings: [])
    }
}
