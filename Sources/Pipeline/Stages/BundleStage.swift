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
    typealias Output = WrittenBundle
    static let name = StageName.bundle
    // 3: a preserved vector or ready bitmap is left out with its failed variant.
    static let version = 3
    let compressor: PayloadCompressor
    let outputFolder: String

    func job(_ plan: BundlePlan, compressions: [String: JobRef<CompressedPayload>]) -> Job<WrittenBundle> {
        let relative = "bundles/\(plan.pack)/\(plan.contentKey.hex.prefix(16)).tsb"
        let target = "\(outputFolder)/\(relative)"
        let compressor = self.compressor, outputFolder = self.outputFolder
        let used = plan.items.compactMap { compressions[$0.file.path] }
        let key = Self.key(options: ["path": relative, "mode": compressor.mode.rawValue, "level": String(compressor.level),
                                   "min-saving": String(compressor.minimumSaving)],
                         inputs: [plan.contentKey] + plan.items.map(\.file.producer.hash))
        let items = plan.items, pack = plan.pack
        var seen: Set<JobKey> = []
        let dependencies = (items.map(\.file.producer) + items.compactMap(\.accompanies) + used.map(\.key)).filter { seen.insert($0).inserted }
        return job(key: key, subject: target, dependencies: dependencies,
                   memoryCost: 2 << 20, priority: StagePriority.manifest, toleratesFailedDependencies: true) { context in
            // A variant that failed is left out (its failure is reported where it happened).
            let present = items.filter { context.succeeded($0.file.producer) && ($0.accompanies.map(context.succeeded) ?? true) }
            guard !present.isEmpty else { return WrittenBundle(pack: pack, path: relative, file: nil) }
            let writer = try BundleWriter(path: target, compressor: compressor)
            for item in present {
                try context.checkCancellation()
                let prepared = compressions[item.file.path]
                    .flatMap { context.result(of: $0)?.payload }
                if let prepared {
                    try writer.add(name: item.name, kind: item.kind, traits: item.traits, payload: prepared)
                } else {
                    try writer.addFile(name: item.name, kind: item.kind, traits: item.traits,
                                       path: "\(outputFolder)/\(item.file.path)")
                }
            }
            return WrittenBundle(pack: pack, path: relative, file: BundleFacts(try writer.finish()))
        }
        .cached(under: outputFolder)
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
