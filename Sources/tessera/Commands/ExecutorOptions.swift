import ArgumentParser
import BuildCache
import Foundation
import JobEngine
import RemoteAPI
import RemoteExecution
import TesseraCore

/// `run`'s remote execution options: an REAPI executor the per-asset work goes to
/// (docs/remote-execution.md). The instance, headers and CA are the remote cache's
/// (`--remote-instance`, `--remote-header`, `--remote-tls-ca`): one server, one set.
struct ExecutorOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        A Remote Execution API server (grpc://HOST:PORT or grpcs://HOST:PORT) that builds the work units \
        (decode, downscale, encode, write), several per action, in its sandbox; packing and manifests stay here. \
        Without --remote-cache, it is the remote cache too.
        """, valueName: "url"))
    var remoteExecutor: String?

    @Option(help: ArgumentHelp("""
        The binary every action runs: a static tessera of this version (scripts/build-static-worker.sh; \
        default: $TESSERA_REMOTE_WORKER, else tessera-worker beside this program, else this program).
        """, valueName: "path"))
    var remoteWorker: String?

    @Option(help: ArgumentHelp("A platform property every action carries, as NAME=VALUE (repeatable): OSFamily=linux, ISA=x86-64, container-image=…",
                               valueName: "name=value"))
    var remotePlatform: [String] = []

    @Option(help: ArgumentHelp("Work units (masters, mostly) per action (default: the units spread evenly over the actions in flight, at most 64 each).",
                               valueName: "n"))
    var remoteBatch: Int?

    @Option(help: ArgumentHelp("Actions in flight at once: about the workers the executor gives this build (default: --jobs).",
                               valueName: "n"))
    var remoteJobs: Int?

    @Option(help: ArgumentHelp("How long one action may run, in seconds.", valueName: "seconds"))
    var remoteActionTimeout: Int = 600

    func validate() throws {
        guard let remoteExecutor else {
            if remoteWorker != nil || !remotePlatform.isEmpty || remoteBatch != nil || remoteJobs != nil || remoteActionTimeout != 600 {
                throw ValidationError("--remote-worker, --remote-platform, --remote-batch, --remote-jobs and --remote-action-timeout need --remote-executor")
            }
            return
        }
        guard (remoteJobs ?? 1) >= 1 else { throw ValidationError("--remote-jobs must be at least 1") }
        guard RemoteEndpoint(url: remoteExecutor) != nil else {
            throw ValidationError("--remote-executor must be a grpc:// or grpcs:// URL, not '\(remoteExecutor)'")
        }
        guard (remoteBatch ?? 1) >= 1 else { throw ValidationError("--remote-batch must be at least 1") }
        guard (1...86_400).contains(remoteActionTimeout) else { throw ValidationError("--remote-action-timeout must be 1 to 86400 seconds") }
        _ = try platform()
        if let remoteWorker, !FileManager.default.isExecutableFile(atPath: remoteWorker) {
            throw ValidationError("--remote-worker: '\(remoteWorker)' is not an executable file")
        }
    }

    func platform() throws -> [String: String] {
        var properties: [String: String] = [:]
        for property in remotePlatform {
            guard let equals = property.firstIndex(of: "="), equals != property.startIndex else {
                throw ValidationError("--remote-platform must be NAME=VALUE, not '\(property)'")
            }
            properties[String(property[..<equals])] = String(property[property.index(after: equals)...])
        }
        return properties
    }

    /// The worker binary: the option, `$TESSERA_REMOTE_WORKER`, `tessera-worker` beside this
    /// program, or this program.
    var worker: String {
        if let remoteWorker { return remoteWorker }
        if let variable = ProcessInfo.processInfo.environment["TESSERA_REMOTE_WORKER"], !variable.isEmpty { return variable }
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = (program as NSString).deletingLastPathComponent + "/tessera-worker"
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : program
    }

    /// The executor for this run, or nil without `--remote-executor`.
    func executor(cache: CacheOptions, buildCache: BuildCache?, pipeline: String, input: String,
                  scheduler: SchedulerOptions) throws(TesseraError) -> RemoteExecutor? {
        guard let remoteExecutor else { return nil }
        guard let buildCache else {
            throw TesseraError(.configuration, origin: .execute, reason: "--remote-executor needs a cache to adopt the actions' results into; drop --no-cache")
        }
        guard let endpoint = try cache.endpoint(remoteExecutor) else {
            throw TesseraError(.configuration, origin: .execute, reason: "--remote-executor must be a grpc:// or grpcs:// URL, not '\(remoteExecutor)'")
        }
        let properties: [String: String]
        do { properties = try platform() } catch { throw TesseraError(.configuration, origin: .execute, reason: "\(error)") }
        let settings = ExecutorSettings(endpoint: endpoint, pipeline: pipeline, inputFolder: input, worker: worker,
                                        platform: properties, unitsPerAction: remoteBatch,
                                        actionsInFlight: remoteJobs ?? scheduler.maxConcurrentJobs,
                                        actionTimeout: .seconds(remoteActionTimeout),
                                        executeTimeout: .seconds(remoteActionTimeout + 300),
                                        expectedWorker: WorkerIdentity.current,
                                        trustsActionCache: buildCache.remote?.authentication == nil)
        return try RemoteExecutor(settings: settings, cache: buildCache)
    }
}
