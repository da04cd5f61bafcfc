import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// One pack's planned contents for the device classes that select them → one bundle file,
/// its entries streamed in (compressed payloads where the compress stage made one).
struct BundleStage: Stage {
    struct Input: Encodable, Sendable {
        let pack: String
        /// Relative to the output folder: named by the contents, so equal contents share a file.
        let path: String
        /// Sorted by name, names unique.
        let entries: [Entry]
    }

    /// One entry, with its payload compressed when the compress stage found that worth it.
    struct Entry: Encodable, Sendable {
        let item: BundleItem
        let compressed: Upstream<CompressedPayload>?
    }

    typealias Output = WrittenBundle
    static let kind = JobKind.bundle
    // 3: a preserved vector or ready bitmap is left out with its failed variant.
    static let version = 3
    static let priority = StagePriority.manifest
    static let toleratesFailedInputs = true
    let options: PayloadCompressor
    let outputFolder: String

    func job(_ plan: BundlePlan, compressions: [String: JobRef<CompressedPayload>]) -> Job<WrittenBundle> {
        job(Input(pack: plan.pack, path: "bundles/\(plan.pack)/\(plan.contentKey.hex.prefix(16)).tsb",
                  entries: plan.items.map { Entry(item: $0, compressed: compressions[$0.file.path].map(Upstream.init)) }))
    }

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.path, under: outputFolder) }
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: 2 << 20) }
    func cacheRoot(for input: Input) -> String? { outputFolder }

    func run(_ input: Input, context: JobContext) throws -> WrittenBundle {
        // A variant that failed is left out (its failure is reported where it happened).
        let present = input.entries.filter { $0.item.wasMade(in: context) }
        guard !present.isEmpty else { return WrittenBundle(pack: input.pack, path: input.path, file: nil) }
        let writer = try BundleWriter(path: subject(of: input), compressor: options)
        for entry in present {
            try context.checkCancellation()
            let item = entry.item
            if let prepared = entry.compressed?.made(in: context)?.payload {
                try writer.add(name: item.name, kind: item.kind, traits: item.traits, payload: prepared)
            } else {
                try writer.addFile(name: item.name, kind: item.kind, traits: item.traits,
                                   path: "\(outputFolder)/\(item.file.path)")
            }
        }
        return WrittenBundle(pack: input.pack, path: input.path, file: BundleFacts(try writer.finish()))
    }
}

/// A bundle job's result; no file when every entry it was planned with failed.
struct WrittenBundle: CachedOutput {
    let pack: String
    let path: String
    let file: BundleFacts?

    var files: [String] { file == nil ? [] : [path] }
    var knownHashes: [String: ContentHash] { file.map { [path: $0.sha256] } ?? [:] }
}

/// What the manifest lists of a written bundle file.
struct BundleFacts: Sendable, Codable {
    let bytes: Int
    let sha256: ContentHash
    /// The entries' bytes once unpacked.
    let uncompressedSize: Int
    /// The entries' names, sorted.
    let entries: [String]

    init(_ file: WrittenBundleFile) {
        bytes = file.bytes
        sha256 = file.sha256
        uncompressedSize = file.index.entries.reduce(0) { $0 + $1.uncompressedSize }
        entries = file.index.entries.map(\.name).sorted()
    }
}
