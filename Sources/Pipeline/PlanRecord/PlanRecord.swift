import Foundation
import JobEngine
import TesseraCore

/// What planning an input tree came to, kept in the build cache under the tree's key: every
/// cacheable job by its cache key, and what the build reported. A run whose inputs have a record
/// restores those jobs' files and reports without planning (the no-op rebuild, the fresh clone
/// with a warm remote cache); if any job misses, it plans as usual.
///
/// The key covers everything a plan is made from: the running program (its build ID), the
/// pipeline, the input and output folders as given, and the input tree (`InputTree`). Only a
/// successful, complete build is recorded.
struct PlanRecord: Codable, Sendable {
    static let currentFormat = 1

    var format = Self.currentFormat
    var jobs: CacheableJobs
    var variantsPlanned: Int
    var variantsWritten: Int
    /// Assets in the manifest written (0 without one).
    var assets: Int
    /// The build's own warnings (planning, decoding, packing), reported again by every run the
    /// record serves.
    var warnings: [BuildProblem]

    /// The key for `request`'s inputs; nil when the program has no build ID or the input tree
    /// cannot be read whole.
    static func key(for request: BuildRequest) -> ContentHash? {
        guard let program = ProgramIdentity.buildID,
              let tree = InputTree(root: request.inputFolder, excluding: request.outputFolder, hashing: request.fileHashing)
        else { return nil }
        var hasher = StableHasher()
        hasher.combine("tessera.plan-record.v\(currentFormat)")
        hasher.combine(program)
        hasher.combine(String(reflecting: request.definition))
        hasher.combine(request.inputFolder)
        hasher.combine(request.outputFolder)
        hasher.combine(tree.lines.count)
        for line in tree.lines { hasher.combine(line) }
        return hasher.finalize()
    }

    /// Nil when the bytes are not a record of this format.
    static func parse(_ bytes: [UInt8]) -> PlanRecord? {
        guard let record = try? JSONDecoder().decode(PlanRecord.self, from: Data(bytes)),
              record.format == currentFormat else { return nil }
        return record
    }

    func serialised() throws(TesseraError) -> [UInt8] {
        try StableJSON.compact(self)
    }
}
