import Decoding
import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the jobs that put variant files on disk, atomically, and describe them for the manifest.
struct OutputStage: BuildStage {
    static let version = 1
    let outputFolder: String

    /// Writes an encoded (generated) variant: from an encode job, or one scale of an animation job.
    func writeJob(encoded: JobKey, variant: PlannedVariant, animated: Bool = false) -> Job {
        let key = Self.key(.write, options: ["path": variant.outputPath, "scale": variant.scale.description],
                         inputs: [encoded.hash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return Job(key: key, stage: StageName.write, subject: target, dependencies: [encoded],
                   priority: StagePriority.write,
                   caching: StageCaching.variant(root: outputFolder, source: variant.source.relativePath)) { context in
            let file: EncodedVariant
            if animated {
                guard let one = try context.input(encoded, as: AnimatedVariants.self).variants[variant.scale] else {
                    throw TesseraError(.internalFailure, stage: StageName.write, reason: "no \(variant.scale) animation was made")
                }
                file = one
            } else {
                file = try context.input(encoded, as: EncodedVariant.self)
            }
            try context.checkCancellation()
            try AtomicFile.write(file.bytes, to: target, flushing: false)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: variant.format, width: file.width,
                height: file.height, bytes: file.bytes.count, sha256: ContentHash.of(file.bytes), generated: true,
                source: variant.source.relativePath), warnings: file.warnings)
        }
    }

    /// Copies a provided variant byte for byte, once a full pass over it has shown it is a valid image.
    func copyJob(check: MasterCheck, source: SourceFacts, variant: PlannedVariant) -> Job {
        let key = Self.key(.copy, options: ["path": variant.outputPath],
                         inputs: [source.contentHash, check.key.hash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return Job(key: key, stage: StageName.copy, subject: target, dependencies: [check.key], memoryCost: source.fileSize,
                   priority: StagePriority.write,
                   caching: StageCaching.variant(root: outputFolder, source: variant.source.relativePath)) { context in
            let master = try check.facts(context)
            let (copy, hash) = try Self.copy(source, to: target, context: context)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: master.info.format, width: master.width,
                height: master.height, bytes: copy.count, sha256: hash, generated: false,
                source: variant.source.relativePath), warnings: master.warnings)
        }
    }

    /// Carries a file Tessera does not decode (PDF, SVG, HEIC) byte for byte; its pixel size is
    /// unknown to Tessera and listed as 0 × 0.
    func carryJob(source: SourceFacts, variant: PlannedVariant) -> Job {
        let key = Self.key(.carry, options: ["path": variant.outputPath],
                         inputs: [source.contentHash])
        let target = "\(outputFolder)/\(variant.outputPath)"
        return Job(key: key, stage: StageName.carry, subject: target, memoryCost: source.fileSize,
                   priority: StagePriority.write,
                   caching: StageCaching.variant(root: outputFolder, source: variant.source.relativePath)) { context in
            let (copy, hash) = try Self.copy(source, to: target, context: context)
            return WrittenVariant(asset: variant.asset, entry: VariantEntry(
                scale: variant.scale, path: variant.outputPath, format: variant.format, width: 0, height: 0,
                bytes: copy.count, sha256: hash, generated: false, source: variant.source.relativePath), warnings: [])
        }
    }

    /// Copies the source's bytes to `target`, refusing a file that changed since planning: the
    /// manifest must describe what was copied.
    private static func copy(_ source: SourceFacts, to target: String,
                             context: JobContext) throws(TesseraError) -> ([UInt8], ContentHash) {
        let bytes = try SourceBytes(contentsOfFile: source.path)
        let copy = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        let hash = ContentHash.of(copy)
        guard hash == source.contentHash else {
            throw TesseraError(.io, file: source.path, stage: StageName.copy, reason: "the file changed during the run")
        }
        try context.checkCancellation()
        try AtomicFile.write(copy, to: target, flushing: false)
        return (copy, hash)
    }
}
