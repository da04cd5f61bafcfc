import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// A file Tessera does not decode (PDF, SVG, HEIC) → carried byte for byte; its pixel size is
/// unknown to Tessera and listed as 0 × 0.
struct CarryStage: Stage {
    typealias Output = WrittenVariant
    static let name = StageName.carry
    static let version = 1
    let outputFolder: String

    func job(source: SourceFacts, variant: PlannedVariant) -> Job<WrittenVariant> {
        let key = Self.key(options: ["path": variant.outputPath], inputs: [source.contentHash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return job(key: key, subject: target, memoryCost: min(source.fileSize, SourceCopy.chunk), priority: StagePriority.write) { context in
            // The copy stage's check and message: a carried file that changed is refused the same way.
            let (copy, hash) = try SourceCopy.copy(source, to: target, stage: CopyStage.name, context: context)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: variant.format, width: 0, height: 0,
                bytes: copy, sha256: hash, generated: false, source: variant.source.relativePath), warnings: [])
        }
        .cached(under: outputFolder, salt: VariantCaching.salt(variant))
    }
}
