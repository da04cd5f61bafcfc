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
    typealias Output = CompressedPayload
    static let name = StageName.compress
    static let version = 2
    let compressor: PayloadCompressor
    let outputFolder: String

    func job(_ item: BundleItem) -> Job<CompressedPayload> {
        let key = Self.key(options: ["mode": compressor.mode.rawValue, "level": String(compressor.level),
                                   "min-saving": String(compressor.minimumSaving), "path": item.file.path,
                                   "kind": String(item.kind.rawValue)],
                         inputs: [item.file.producer.hash])
        let path = "\(outputFolder)/\(item.file.path)"
        // liblzma's preset-6 encoder holds about 94 MiB, plus the file and its compressed copy.
        let compressor = self.compressor
        return job(key: key, subject: path, dependencies: [item.file.producer], memoryCost: 128 << 20,
                   priority: StagePriority.manifest) { context in
            try context.checkCancellation()
            return CompressedPayload(payload: try PreparedPayload.compressed(
                fileAt: path, kind: item.kind, name: item.file.path, compressor: compressor))
        }
    }
}

/// A compress job's result: the payload compressed, or nil when storing it is better.
struct CompressedPayload: Sendable {
    let payload: PreparedPayload?
}
