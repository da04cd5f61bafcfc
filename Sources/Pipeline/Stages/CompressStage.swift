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
    typealias Input = BundleItem
    typealias Output = CompressedPayload
    static let kind = JobKind.compress
    static let version = 2
    static let priority = StagePriority.manifest
    let options: PayloadCompressor
    let outputFolder: String

    func subject(of item: BundleItem) -> String { "\(outputFolder)/\(item.file.path)" }
    /// liblzma's preset-6 encoder holds about 94 MiB, plus the file and its compressed copy.
    func memoryCost(of item: BundleItem) -> JobMemory { JobMemory(running: 128 << 20) }

    func run(_ item: BundleItem, context: JobContext) throws -> CompressedPayload {
        try context.checkCancellation()
        return CompressedPayload(payload: try PreparedPayload.compressed(
            fileAt: subject(of: item), kind: item.kind, name: item.file.path, compressor: options))
    }
}

/// A compress job's result: the payload compressed, or nil when storing it is better.
struct CompressedPayload: Sendable {
    let payload: PreparedPayload?
}
