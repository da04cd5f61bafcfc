import Delivery
import Foundation
import JobEngine
import Packing
import TesseraCore

/// A built file some bundle holds → `objects/<sha256>`, its transfer form (`ObjectWriter`): one
/// job per file, whichever bundles and device classes hold it, reusing the compress stage's xz.
struct ObjectStage: Stage {
    struct Input: Encodable, Sendable {
        let file: PlannedFile
        let kind: BundleRecord.Kind
        /// The compress job of the file, when it has one.
        let compressed: Upstream<CompressedPayload>?
    }
    typealias Output = WrittenObject
    static let kind = JobKind.object
    static let version = 1
    static let priority = StagePriority.manifest
    let options: PayloadCompressor
    let outputFolder: String

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.file.path, under: outputFolder) }
    /// A ready bitmap is read whole and compressed (liblzma's preset-6 encoder holds about 94 MiB).
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: input.kind == .readyBitmap ? 128 << 20 : 8 << 20) }
    func cacheRoot(for input: Input) -> String? { outputFolder }

    func run(_ input: Input, context: JobContext) throws -> WrittenObject {
        try context.checkCancellation()
        let prepared = try input.compressed?.value(in: context).payload
        let writer = ObjectWriter(compressor: options, outputFolder: outputFolder)
        return WrittenObject(object: try writer.write(file: input.file.path, kind: input.kind, prepared: prepared))
    }
}

/// An object job's result: the object as the manifest lists it.
struct WrittenObject: CachedOutput {
    let object: TransferObject

    var files: [String] { [object.path] }
}
