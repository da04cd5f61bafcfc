import Foundation
import Pipeline
import RemoteAPI
import TesseraCore

/// One action: a batch of work units and everything the worker needs to build them in an empty
/// sandbox, laid out as
///
///     tessera            the worker binary (a static executable), uploaded once by digest
///     job/units          the units' ids, one a line: `tessera run --units job/units`
///     job/<pipeline>     the pipeline file, unless it is a built-in one's name
///     in/NAME/...        the input (under its own folder name, which a catalog's assets are
///                        named by) : its shared files and the units' own sources
///
/// and its outputs, the worker's cache folder (`cache/ac`, `cache/cas`), which this machine
/// adopts (`ResultAdoption`). The same batch of the same files is the same action digest, so the
/// server's action cache answers a repeated build without running anything.
struct WorkerAction {
    let units: [RemoteWorkOrder.Unit]
    let root: InputRoot
    let command: ActionCommand

    private static func environment(_ settings: ExecutorSettings) -> [String: String] {
        var environment = ["HOME": "/tmp", "TMPDIR": "/tmp", "TESSERA_CACHE_DIR": "cache"]
        // The worker checks it; being in the command, it is in the action digest too.
        environment["TESSERA_EXPECTED_WORKER"] = settings.expectedWorker
        return environment
    }

    static let entriesFolder = "cache/ac"
    static let blobsFolder = "cache/cas"

    init(units: [RemoteWorkOrder.Unit], shared: [InputRoot.File], settings: ExecutorSettings, digests: FileDigests) throws(TesseraError) {
        self.units = units
        var files = shared
        let ids = units.flatMap(\.ids).map(\.hex).joined(separator: "\n") + "\n"
        files.append(InputRoot.File(path: "job/units", bytes: Data(ids.utf8)))
        // Two units of a batch may read one file (an image set's master and its ready bitmap).
        var shipped = Set<String>()
        let sharedPaths = Set(shared.map(\.path).filter { $0.hasPrefix(settings.shippedInput + "/") }
            .map { String($0.dropFirst(settings.shippedInput.count + 1)) })
        for unit in units {
            for read in unit.reads where !sharedPaths.contains(read) && shipped.insert(read).inserted {
                files.append(try digests.file(at: "\(settings.shippedInput)/\(read)", source: "\(settings.inputFolder)/\(read)"))
            }
        }
        root = try InputRoot(files)
        var arguments = ["./tessera", "run", settings.pipelineArgument, "--input", settings.shippedInput, "--output", "out",
                         "--cache", "cache", "--units", "job/units", "--progress", "quiet"]
        if let jobs = settings.workerJobs { arguments += ["--jobs", String(jobs)] }
        command = ActionCommand(arguments: arguments,
                                environment: Self.environment(settings),
                                outputPaths: [Self.entriesFolder, Self.blobsFolder],
                                platform: settings.platform, timeout: settings.actionTimeout)
    }
}
