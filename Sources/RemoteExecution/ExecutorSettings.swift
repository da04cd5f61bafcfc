import Foundation
import RemoteAPI
import TesseraCore

/// How a build uses a remote executor (`--remote-executor` and the options beside it), parsed
/// once by the command line.
public struct ExecutorSettings: Sendable {
    /// The server that runs the actions (and holds their inputs and outputs in its CAS).
    public var endpoint: RemoteEndpoint
    /// The pipeline as `run` was given it: a file (shipped with every action) or a built-in name.
    public var pipeline: String
    /// The input folder the build reads.
    public var inputFolder: String
    /// The binary every action runs: a static `tessera` (`scripts/build-static-worker.sh`).
    public var worker: String
    /// Platform properties every action carries (`OSFamily=linux`, `container-image=…`).
    public var platform: [String: String]
    /// Work units (masters, mostly) per action; nil: `automaticBatch`.
    public var unitsPerAction: Int?
    /// Actions in flight at once (`--jobs`).
    public var actionsInFlight: Int
    /// The worker's own `--jobs` (nil: its machine's cores).
    public var workerJobs: Int?
    /// How long one action may run on the worker.
    public var actionTimeout: Duration
    /// How long a whole `Execute` may take, queueing included: a job no worker matches stays
    /// queued for ever on some servers.
    public var executeTimeout: Duration
    /// What the worker must be (`tessera`'s `WorkerIdentity`): sent in every action, which a
    /// worker of another build refuses; nil sends nothing.
    public var expectedWorker: String?
    /// Whether an action's result may come from the server's action cache. Not when entries
    /// must carry a MAC (`TESSERA_REMOTE_CACHE_KEY`): anyone who may write the action cache
    /// could plant a result there, so every action runs.
    public var trustsActionCache: Bool

    public init(endpoint: RemoteEndpoint, pipeline: String, inputFolder: String, worker: String,
                platform: [String: String] = [:], unitsPerAction: Int? = nil,
                actionsInFlight: Int, workerJobs: Int? = nil,
                actionTimeout: Duration = .seconds(600), executeTimeout: Duration = .seconds(900),
                expectedWorker: String? = nil, trustsActionCache: Bool = true) {
        self.expectedWorker = expectedWorker
        self.trustsActionCache = trustsActionCache
        self.endpoint = endpoint
        self.pipeline = pipeline
        self.inputFolder = inputFolder
        self.worker = worker
        self.platform = platform
        self.unitsPerAction = unitsPerAction
        self.actionsInFlight = max(1, actionsInFlight)
        self.workerJobs = workerJobs
        self.actionTimeout = actionTimeout
        self.executeTimeout = executeTimeout
    }

    /// The batch when none is given: the units spread evenly over the actions in flight, one
    /// action a worker, at most `largestAutomaticBatch` units each. Measured
    /// (Benchmarks/remote-execution.sh, docs/ci.md#remote-execution-reapi): an action costs about
    /// 0.23 s whatever it holds and a small master 14 ms, so the fewest actions that keep every
    /// worker busy are fastest (600 masters: 60 a batch on 10 workers, 6 on 100).
    public func automaticBatch(units: Int) -> Int {
        min(Self.largestAutomaticBatch, max(1, (units + actionsInFlight - 1) / actionsInFlight))
    }

    /// An action of this many masters stays within a few seconds and a worker's memory, and a
    /// failed one costs little to build here.
    public static let largestAutomaticBatch = 64

    /// The pipeline as the worker names it: the shipped file, or the built-in name.
    var pipelineArgument: String {
        pipelineBytes == nil ? pipeline : "job/pipeline/" + (pipeline as NSString).lastPathComponent
    }

    /// The pipeline file's bytes, read as `PipelineFileReader` reads them (a folder or a missing
    /// file is a built-in pipeline's name); nil for a built-in pipeline.
    var pipelineBytes: Data? { FileManager.default.contents(atPath: pipeline) }

    /// Where the input lies in an action's root: under its own name, because a build of one
    /// `.xcassets` names its variants after the catalog (`variants/Assets/…`).
    var shippedInput: String {
        let name = (URL(fileURLWithPath: inputFolder).standardizedFileURL.path as NSString).lastPathComponent
        return "in/" + (name.isEmpty || name == "/" ? "input" : name)
    }
}
