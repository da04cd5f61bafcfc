import Foundation
import TesseraCore

/// What one shard did (`shard-I-of-N.json` in its output folder): enough for `tessera merge` to
/// check that the shards belong to one build and cover it exactly.
public struct PartialManifest: Sendable, Codable, Equatable {
    public var format = 1
    /// The pipeline file and input folder as the shard was given them (relative paths stay
    /// relative, so a merge on another runner's checkout finds them).
    public var pipelineFile: String
    public var inputFolder: String
    /// Equal for every shard of one build: the pipeline and every unit's id.
    public var planHash: ContentHash
    public var shard: Int
    public var shards: Int
    /// The ids of the units this shard built, sorted.
    public var units: [ContentHash]
    /// Whether every job of those units succeeded (their results are in the cache).
    public var succeeded: Bool

    public static func fileName(_ shard: Shard) -> String { "shard-\(shard.index)-of-\(shard.count).json" }

    func write(to path: String) throws(TesseraError) {
        try AtomicFile.write(try StableJSON.encode(self), to: path)
    }

    /// Reads a partial manifest; throws naming the file when it is missing or not one.
    public static func read(_ path: String) throws(TesseraError) -> PartialManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.configuration, file: path, reason: "cannot read the partial manifest")
        }
        do {
            let partial = try JSONDecoder().decode(PartialManifest.self, from: data)
            guard partial.format == 1 else {
                throw TesseraError(.configuration, file: path, reason: "partial manifest format \(partial.format) is not 1")
            }
            return partial
        } catch let error as TesseraError {
            throw error
        } catch {
            throw TesseraError(.configuration, file: path, reason: "not a partial manifest: \(error)")
        }
    }
}
