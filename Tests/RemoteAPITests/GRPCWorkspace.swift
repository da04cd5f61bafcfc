import BuildCache
import Foundation
import JobEngine
import Pipeline
import TesseraCore

/// A temporary folder for one gRPC cache test: the sample inputs (two still assets, a JPEG and an
/// animated GIF: every cacheable stage), a reference build without a cache, and output folders.
final class GRPCWorkspace: Sendable {
    let root: String
    let reference: [String: Data]

    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-grpc-test-\(UUID().uuidString)").path
        let corpus = "\(Self.packageRoot)/Tests/Fixtures/corpus"
        for (source, name) in [("png/pngsuite/basn6a08.png", "icons/alpha@3x.png"), ("png/pngsuite/basn2c08.png", "icons/alpha@2x.png"),
                               ("still/pillow/jpeg/hopper.jpg", "photos/hopper@3x.jpg"),
                               ("animated/pillow/duplicate_number_of_loops.gif", "anim/loops@2x.gif")] {
            let target = "\(root)/input/\(name)"
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(corpus)/\(source)", toPath: target)
        }
        _ = try await Self.build(root: root, into: "plain", cache: nil)
        reference = Self.outputs("\(root)/plain")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var input: String { "\(root)/input" }

    /// Builds the sample into `root/output` with the app-thinning pipeline through `cache`.
    func build(into output: String, cache: BuildCache?, observer: (any SchedulerObserver)? = nil) async throws -> BuildOutcome {
        try await Self.build(root: root, into: output, cache: cache, observer: observer)
    }

    private static func build(root: String, into output: String, cache: BuildCache?,
                              observer: (any SchedulerObserver)? = nil) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Self.packageRoot)/Pipelines/app-thinning.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(root)/input", outputFolder: "\(root)/\(output)",
                                                         cache: cache, fileHashing: cache), observer: observer)
    }

    /// A fresh local cache folder (a fresh checkout on another runner) backed by `remote`.
    func freshCache(_ name: String, remote: RemoteCache?) throws -> BuildCache {
        try BuildCache(folder: CacheFolder(path: "\(root)/cache-\(name)"), remote: remote)
    }

    func outputs(_ name: String) -> [String: Data] { Self.outputs("\(root)/\(name)") }

    /// Every file under `folder` but `report.json` (its timings differ) and `.tessera-outputs`, with its bytes.
    static func outputs(_ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [:] }
        while let next = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder)
            if !isFolder.boolValue, next != "report.json", next != ".tessera-outputs" {
                result[next] = FileManager.default.contents(atPath: "\(folder)/\(next)")
            }
        }
        return result
    }
}

extension BuildOutcome {
    /// The remote cache's warnings.
    var cacheWarnings: [String] { report.warnings.filter { $0.stage == .cache }.map(\.reason) }
    /// Misses of the per-file stages (the gather, slice and manifest jobs are keyed by their output
    /// folder's path, so a build into another folder reruns them, and so is the plan record).
    var fileMisses: Int? {
        report.cache.map { $0.filter { ![JobKind.gather, .slice, .manifest, .plan].contains($0.key) }.values.reduce(0) { $0 + $1.misses } }
    }
}
