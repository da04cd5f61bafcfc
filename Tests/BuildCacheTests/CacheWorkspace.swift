import BuildCache
import Foundation
import JobEngine
import Pipeline
import Synchronization
import TesseraCore

/// A temporary folder for one cache test: inputs from the corpus, output folders, a cache folder.
final class CacheWorkspace: Sendable {
    let root: String

    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let corpus = "\(packageRoot)/Tests/Fixtures/corpus"

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cache-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var input: String { "\(root)/input" }
    var cacheFolder: CacheFolder { CacheFolder(path: "\(root)/cache") }

    /// Copies a corpus file to `input/<name>`.
    func add(_ corpusPath: String, as name: String) throws {
        let target = "\(input)/\(name)"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: "\(Self.corpus)/\(corpusPath)", toPath: target)
    }

    /// Two still assets (one with a provided 2x), a JPEG and an animated GIF: every cacheable stage.
    func layOutSample() throws {
        try add("png/pngsuite/basn6a08.png", as: "icons/alpha@3x.png")
        try add("png/pngsuite/basn2c08.png", as: "icons/alpha@2x.png")
        try add("still/pillow/jpeg/hopper.jpg", as: "photos/hopper@3x.jpg")
        try add("animated/pillow/duplicate_number_of_loops.gif", as: "anim/loops@2x.gif")
        // The photo and the animation tagged (packed into bundles); the icon untagged (it stays
        // in the app): builds make both.
        try Data("tags:\n  \"photos/**\": [media]\n  \"anim/**\": [media]\n".utf8).write(to: URL(fileURLWithPath: "\(input)/tessera.yml"))
    }

    /// Dates every source a minute back, as files checked out earlier are: hashing them now is not racy.
    func ageSources() throws {
        for name in FileManager.default.enumerator(atPath: input)?.allObjects as? [String] ?? [] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)],
                                                  ofItemAtPath: "\(input)/\(name)")
        }
    }

    /// Builds `input` into `output` with the app-thinning pipeline, through `cache` (nil: no cache).
    func build(into output: String, cache: BuildCache?, observer: (any SchedulerObserver)? = nil) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Self.packageRoot)/Pipelines/app-thinning.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input, outputFolder: output,
                                                         cache: cache, fileHashing: cache), observer: observer)
    }

    /// A fresh cache object on the shared folder, as a new process would open it.
    func openCache(remote: RemoteCache? = nil) throws -> BuildCache {
        try BuildCache(folder: cacheFolder, remote: remote)
    }

    /// Every file under `folder` but `report.json` (its timings differ between runs) and the folder's
    /// list of its files (`.tessera-outputs`, not a build output), with its bytes.
    func outputs(_ folder: String) -> [String: Data] {
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

    /// Paths of every file under the cache's `sub` folder (`cas`, `ac`).
    func cacheFiles(_ sub: String) -> [String] {
        let base = "\(cacheFolder.path)/\(sub)"
        return (FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? [])
            .map { "\(base)/\($0)" }
            .filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
            }
            .sorted()
    }
}

/// Keeps every finished job's summary, for what progress displays are told.
final class FinishedJobs: SchedulerObserver {
    private let jobs = Mutex<[JobSummary]>([])

    func scheduler(didEmit event: SchedulerEvent, progress: RunProgress) {
        if case .finished(let job, _) = event { jobs.withLock { $0.append(job) } }
    }

    var all: [JobSummary] { jobs.withLock { $0 } }
}

extension [JobKind: CacheCounts] {
    var totalHits: Int { values.reduce(0) { $0 + $1.hits } }
    var totalMisses: Int { values.reduce(0) { $0 + $1.misses } }
    /// Misses of the per-file stages; the gather, slice and manifest jobs are keyed by their output
    /// folder's path, so a build into another folder reruns them (they are quick), and so is the
    /// plan record (`plan`).
    var fileMisses: Int {
        filter { ![JobKind.gather, .slice, .manifest, .plan].contains($0.key) }.values.reduce(0) { $0 + $1.misses }
    }
}
