import BuildCache
import Foundation
import JobEngine
import Pipeline
import RemoteAPI
import RemoteExecution
import TestServers
import TestSupport
import TesseraCore

/// A test's build: `Samples/` (and anything added) built with the samples pipeline, here or
/// through a remote executor, each with a cache folder of its own unless told.
final class RemoteBuild {
    let workspace: Workspace
    static let pipeline = "\(Workspace.packageRoot)/Pipelines/samples.yml"

    init(addingVectors: Bool = false) throws {
        workspace = try Workspace()
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: workspace.input)
        try? FileManager.default.removeItem(atPath: "\(workspace.input)/ClientDemo")
        if addingVectors {
            try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Tests/Fixtures/vectors/brand_logo.svg",
                                             toPath: "\(workspace.input)/Assets/brand_logo.svg")
        }
    }

    func cache(_ name: String, remote: RemoteCache? = nil) throws -> BuildCache {
        try BuildCache(folder: CacheFolder(path: "\(workspace.root)/cache-\(name)"), remote: remote)
    }

    /// The worker the tests' actions run: the debug `tessera` of this build (dynamically linked,
    /// so casd runs with the host's /usr bound in; the static release worker is tested by
    /// scripts/test-static-worker.sh).
    static var worker: String { TesseraProcess.executable }

    /// casd's `--runner-arg`s binding into the sandbox the folders of the worker's libraries that
    /// /usr does not hold (the Swift runtime of the toolchain that built it).
    static var workerLibraries: [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [worker]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let folders = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            let folder = (path as NSString).deletingLastPathComponent
            return folder.hasPrefix("/usr/") || folder.hasPrefix("/lib") ? nil : folder
        })
        return folders.sorted().map { "--runner-arg=--ro-bind-mount=\($0):\($0)" }
    }

    /// casd that can run the test's worker.
    static func casd(jobs: Int = 2) throws -> CASDServer {
        try CASDServer(jobs: jobs, hostUsr: true, extraArguments: workerLibraries)
    }

    func executor(_ url: String, cache: BuildCache, unitsPerAction: Int = 3, inFlight: Int = 2,
                  platform: [String: String] = [:], executeTimeout: Duration = .seconds(300),
                  expectedWorker: String? = nil, trustsActionCache: Bool = true) throws -> RemoteExecutor {
        let settings = ExecutorSettings(endpoint: RemoteEndpoint(url: url)!, pipeline: Self.pipeline,
                                        inputFolder: workspace.input, worker: Self.worker, platform: platform,
                                        unitsPerAction: unitsPerAction, actionsInFlight: inFlight,
                                        actionTimeout: .seconds(240), executeTimeout: executeTimeout,
                                        expectedWorker: expectedWorker, trustsActionCache: trustsActionCache)
        return try RemoteExecutor(settings: settings, cache: cache, timeout: .seconds(20))
    }

    func build(_ name: String, cache: BuildCache?, executor: RemoteExecutor? = nil) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: Self.pipeline)
        let request = BuildRequest(definition: definition, inputFolder: workspace.input,
                                   outputFolder: output(name), scheduler: SchedulerOptions(maxConcurrentJobs: 2),
                                   cache: cache, fileHashing: cache, remoteWork: executor)
        let outcome = try await PipelineRunner.run(request)
        return outcome
    }

    func output(_ name: String) -> String { "\(workspace.root)/out-\(name)" }

    /// The build's files, `report.json` aside (it holds times and cache counts); with `warned`,
    /// `size-report.html` too, which lists the build's warnings (a fallback's among them).
    func files(_ name: String, warned: Bool = false) -> [String: Data] {
        workspace.files(under: output(name)).filter { $0.key != "report.json" && !(warned && $0.key == "size-report.html") }
    }

    /// Jobs of the per-asset kinds the run did itself (misses): what remote execution spares.
    static func localWork(_ outcome: BuildOutcome) -> Int {
        let counts = outcome.report.cache ?? [:]
        return [JobKind.write, .copy, .timing, .animate].reduce(0) { $0 + (counts[$1]?.misses ?? 0) }
    }
}
