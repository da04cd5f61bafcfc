import Decoding
import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// A provided variant → a byte-for-byte copy, once a full pass over it has shown it is a valid image.
struct CopyStage: Stage {
    typealias Output = WrittenVariant
    static let name = StageName.copy
    static let version = 1
    let outputFolder: String

    func job(check: MasterCheck, source: SourceFacts, variant: PlannedVariant) -> Job<WrittenVariant> {
        let key = Self.key(options: ["path": variant.outputPath], inputs: [source.contentHash, check.key.hash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return job(key: key, subject: target, dependencies: [check.key], memoryCost: source.fileSize,
                   priority: StagePriority.write) { context in
            let master = try check.facts(context)
            let (copy, hash) = try SourceCopy.copy(source, to: target, stage: Self.name, context: context)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: master.info.format, width: master.width,
                height: master.height, bytes: copy.count, sha256: hash, generated: false,
                source: variant.source.relativePath), warnings: master.warnings.map { StageNote(.decode, $0) })
        }
        .cached(under: outputFolder, salt: VariantCaching.salt(variant))
    }
}

/// Copies a source's bytes, refusing a file that changed since planning: the manifest must
/// describe what was copied.
enum SourceCopy {
    static func copy(_ source: SourceFacts, to target: String, stage: StageName,
                     context: JobContext) throws(TesseraError) -> ([UInt8], ContentHash) {
        let bytes = try SourceBytes(contentsOfFile: source.path)
        let copy = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        let hash = ContentHash.of(copy)
        guard hash == source.contentHash else {
            throw TesseraError(.io, file: source.path, stage: stage, reason: "the file changed during the run")
        }
        try context.checkCancellation()
        try AtomicFile.write(copy, to: target, flushing: false)
        return (copy, hash)
    }
}
