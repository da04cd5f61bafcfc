import Foundation
import JobEngine
import TesseraCore

/// What planning an input tree came to, kept in the build cache under the tree's key: every
/// cacheable job by its cache key, and what the build reported. A run whose inputs have a record
/// restores those jobs' files and reports without planning (the no-op rebuild, the fresh clone
/// with a warm remote cache); if any job misses, it plans as usual.
///
/// The key covers everything a plan is made from: the running program (its build ID), the
/// pipeline, how the input and output folders stand to each other (`FolderRelation`), and the
/// input tree (`InputTree`). The warnings it keeps name files by those folders too, and are
/// reported under the folders of the run they serve. Only a successful, complete build is recorded.
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
        key(for: request, tree: InputTree(root: request.inputFolder, excluding: request.outputFolder, hashing: request.fileHashing))
    }

    /// The key for `request` whose input tree is `tree` (nil: it could not be read whole).
    static func key(for request: BuildRequest, tree: InputTree?) -> ContentHash? {
        guard let program = ProgramIdentity.buildID, let tree else { return nil }
        var hasher = StableHasher()
        hasher.combine("tessera.plan-record.v\(currentFormat)")
        hasher.combine(program)
        hasher.combine(bytes: request.definition.fingerprint)
        let folders = FolderRelation(input: request.inputFolder, output: request.outputFolder)
        hasher.combine(folders.inputName)
        hasher.combine(folders.outputFromInput)
        hasher.combine(tree.lines.count)
        for line in tree.lines { hasher.combine(line) }
        // The manifest lists the builds it has patches from.
        let predecessors = request.previous?.references ?? []
        hasher.combine(predecessors.count)
        for predecessor in predecessors { hasher.combine(predecessor.sha256.hex + ":\(predecessor.bytes)") }
        return hasher.finalize()
    }

    /// Placeholders for the input and output folders in the warnings a record keeps.
    static let inputMark = "{input}", outputMark = "{output}"

    /// `warnings` with their files named by placeholders for `request`'s folders, to keep.
    static func portable(_ warnings: [BuildProblem], of request: BuildRequest) -> [BuildProblem] {
        warnings.map { problem in
            var problem = problem
            problem.file = replacing(problem.file, [(request.inputFolder, inputMark), (request.outputFolder, outputMark)])
            return problem
        }
    }

    /// The kept warnings with the placeholders made `request`'s folders.
    func warnings(for request: BuildRequest) -> [BuildProblem] {
        warnings.map { problem in
            var problem = problem
            problem.file = Self.replacing(problem.file, [(Self.inputMark, request.inputFolder), (Self.outputMark, request.outputFolder)])
            return problem
        }
    }

    private static func replacing(_ file: String, _ pairs: [(String, String)]) -> String {
        for (prefix, replacement) in pairs where !prefix.isEmpty {
            if file == prefix { return replacement }
            if file.hasPrefix(prefix + "/") { return replacement + file.dropFirst(prefix.count) }
        }
        return file
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
