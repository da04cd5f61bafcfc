import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// A built file worth compressing → its payload xz-compressed, or nil when storing it is better.
/// Decided once per file, whichever bundles hold it.
struct CompressStage: Stage {
    /// The file and what kind of entry it is: all the decision reads (not the entry's name or
    /// traits, nor the variant it goes with, which the bundle job waits for).
    struct Input: Encodable, Sendable {
        let file: PlannedFile
        let kind: BundleRecord.Kind
    }
    typealias Output = CompressedPayload
    static let kind = JobKind.compress
    static let version = 2
    static let priority = StagePriority.manifest
    let options: PayloadCompressor
    let outputFolder: String

    func job(_ item: BundleItem) -> Job<CompressedPayload> { job(Input(file: item.file, kind: item.kind)) }

    func subject(of item: Input) -> String { jobSubject(of: item).text }
    func jobSubject(of item: Input) -> JobSubject { JobSubject(item.file.path, under: outputFolder) }
    /// liblzma's preset-6 encoder holds about 94 MiB, plus the file and its compressed copy.
    func memoryCost(of item: Input) -> JobMemory { JobMemory(running: 128 << 20) }

    func run(_ item: Input, context: JobContext) throws -> CompressedPayload {
        try context.checkCancellation()
        return CompressedPayload(payload: try PreparedPayload.compressed(
            fileAt: subject(of: item), kind: item.kind, name: item.file.path, compressor: options))
    }
}

/// A compress job's result: the payload compressed, or nil when storing it is better.
struct CompressedPayload: Sendable {
    let payload: PreparedPayload?
}
