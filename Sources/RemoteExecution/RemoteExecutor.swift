import BuildCache
import Foundation
import JobEngine
import Pipeline
import RemoteAPI
import Synchronization
import TesseraCore
import REAPIMessages

/// Builds work units as Remote Execution API actions (`--remote-executor grpc://…`): each action
/// runs the same Tessera as a static binary on a batch of units in the server's sandbox, hands
/// back its cache folder, and the entries are adopted into this build's cache, so the run that
/// follows restores them (byte for byte what it would have built: the same code, the same keys).
///
/// Packing, manifests and reports stay here. So does anything an action does not bring back: a
/// unit the worker cannot build (`UnitBatches`), an action that failed, a server that is gone.
/// Each kind of problem is one warning; after `failureLimit` failed actions the rest are not
/// sent, and their units are built here.
public final class RemoteExecutor: RemoteWork {
    public let settings: ExecutorSettings
    private let cache: BuildCache
    private let connection: RemoteConnection
    private let tally = Mutex(Tally())
    static let failureLimit = 3
    /// The exit status of a worker that is not the build the action asked for (`WorkerIdentity`).
    static let workerMismatch: Int32 = 78

    /// What the executor did in a run, for the command's summary.
    public struct Tally: Sendable {
        public var actions = 0
        /// Actions the server answered from its action cache.
        public var cachedActions = 0
        public var failedActions = 0
        public var unitsSent = 0
        public var entriesAdopted = 0
        /// Units built here: cached already, not for the worker, or their action failed.
        public var unitsLocal = 0
        var warnings: [String: String] = [:]
        var consecutiveFailures = 0
    }

    /// Opens the connection (lazily); throws when the endpoint's TLS settings are unusable.
    public init(settings: ExecutorSettings, cache: BuildCache, timeout: Duration = .seconds(30)) throws(TesseraError) {
        self.settings = settings
        self.cache = cache
        do {
            connection = try RemoteConnection(endpoint: settings.endpoint, timeout: timeout)
        } catch {
            throw TesseraError(.configuration, origin: .execute, reason: "remote executor \(settings.endpoint.description): \(error.description)")
        }
    }

    public var summary: Tally { tally.withLock { $0 } }

    public func perform(_ order: RemoteWorkOrder, cancellation: CancellationSource) async -> [String] {
        let settings = self.settings
        let batches = UnitBatches(order.units, unitsPerAction: { settings.unitsPerAction ?? settings.automaticBatch(units: $0) },
                                  held: cache.holdsEntry)
        tally.withLock { $0.unitsLocal += batches.localOnly.count }
        guard !batches.batches.isEmpty else { return warnings }
        let shared: [InputRoot.File]
        let digests = FileDigests { [cache] path throws(TesseraError) in try cache.contentHash(ofFileAt: path) }
        do {
            let limits = try await connection.serverLimits()
            guard limits.executes else {
                note("capabilities", "\(settings.endpoint.description) does not execute actions; every unit was built here")
                tally.withLock { $0.unitsLocal += batches.batches.joined().count }
                return warnings
            }
            shared = try sharedFiles(order, digests: digests)
            // Once, before the actions: each of the first `actionsInFlight` would otherwise find
            // the worker (90 MB) missing at the same moment and send it too.
            try await ContentStore(connection: connection)
                .uploadMissing(shared.map { BlobUpload(digest: $0.digest, source: $0.content.upload) })
        } catch let error as RemoteCallError {
            note("connect", "\(settings.endpoint.description): \(error.description); every unit was built here")
            tally.withLock { $0.unitsLocal += batches.batches.joined().count }
            return warnings
        } catch let error as TesseraError {
            note("input", "\(error.file.map { "\($0): " } ?? "")\(error.reason); every unit was built here")
            tally.withLock { $0.unitsLocal += batches.batches.joined().count }
            return warnings
        } catch {
            return warnings
        }
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func submit() {
                let batch = batches.batches[next]
                next += 1
                group.addTask { await self.run(batch, shared: shared, digests: digests) }
            }
            while next < min(settings.actionsInFlight, batches.batches.count) { submit() }
            while await group.next() != nil {
                // After Ctrl-C no more actions go; the run that follows stops at once too.
                if next < batches.batches.count, !cancellation.isCancelled { submit() }
            }
        }
        return warnings
    }

    private var warnings: [String] {
        tally.withLock { $0.warnings }.sorted { $0.key < $1.key }.map { "remote executor: \($0.value)" }
    }

    /// The files every action of this build carries: the worker, the pipeline, the input's
    /// shared files; uploaded once here, so each action uploads only its units' sources.
    private func sharedFiles(_ order: RemoteWorkOrder, digests: FileDigests) throws -> [InputRoot.File] {
        var files = [try digests.file(at: "tessera", source: settings.worker, executable: true)]
        if let bytes = settings.pipelineBytes {
            files.append(InputRoot.File(path: settings.pipelineArgument, bytes: bytes))
        }
        for relative in try InputFiles(order: order, excluding: cache.folder.path).shared {
            files.append(try digests.file(at: "\(settings.shippedInput)/\(relative)", source: "\(order.inputFolder)/\(relative)"))
        }
        return files
    }

    private func run(_ units: [RemoteWorkOrder.Unit], shared: [InputRoot.File], digests: FileDigests) async {
        guard tally.withLock({ $0.consecutiveFailures < Self.failureLimit }) else {
            tally.withLock { $0.unitsLocal += units.count }
            return
        }
        let store = ContentStore(connection: connection)
        do {
            let action = try WorkerAction(units: units, shared: shared, settings: settings, digests: digests)
            let (command, message) = action.command.messages(root: action.root.digest)
            var blobs = action.root.blobs.map { BlobUpload(digest: $0.key, source: $0.value.upload) }
            blobs.append(BlobUpload(digest: REAPIDigest(of: command), source: .bytes(command)))
            blobs.append(BlobUpload(digest: REAPIDigest(of: message), source: .bytes(message)))
            try await store.uploadMissing(blobs)
            let outcome = try await ExecutionClient(connection: connection)
                .execute(REAPIDigest(of: message), timeout: settings.executeTimeout, skipCacheLookup: !settings.trustsActionCache)
            switch outcome {
            case .refused(let reason):
                fail(units, kind: "refused", "an action was refused (\(reason)); its units were built here")
            case .ran(let result, _) where result.exitCode == Self.workerMismatch:
                // Another build of Tessera would make other bytes under the same keys: none is sent again.
                let output = await errorOutput(result, store: store)
                fail(units, kind: "worker", "the worker \(settings.worker) is not the build of this tessera\(output); every unit was built here")
                tally.withLock { $0.consecutiveFailures = Self.failureLimit }
            case .ran(let result, let cached):
                let jobs = units.flatMap(\.cachedJobs)
                let taken = try await ResultAdoption(store: store, cache: cache).adopt(result, jobs: jobs)
                let adopted = taken.adopted
                if taken.damaged > 0 {
                    note("damaged", "\(settings.endpoint.description) sent results that do not match their digests; not used (their jobs were built here)")
                }
                if let misfiling = taken.misfiling {
                    note("misfiled", "\(settings.endpoint.description) sent entries that are not their jobs' (\(misfiling)); not used (their jobs were built here)")
                }
                tally.withLock {
                    $0.actions += 1
                    $0.cachedActions += cached ? 1 : 0
                    $0.unitsSent += units.count
                    $0.entriesAdopted += adopted
                    $0.consecutiveFailures = 0
                }
                if adopted == 0, !jobs.isEmpty, taken.damaged == 0, taken.misfiled == 0 {
                    // Nothing came back: a worker that failed, or planned other jobs than these
                    // (another input or build), which would otherwise cost every action silently.
                    let output = await errorOutput(result, store: store)
                    fail([], kind: "empty", "an action's worker exited with \(result.exitCode) and brought back none of its units' results\(output); they were built here")
                }
            }
        } catch let error as RemoteCallError {
            fail(units, kind: "call", "\(error.description); the action's units were built here")
        } catch let error as TesseraError {
            fail(units, kind: "input", "\(error.file.map { "\($0): " } ?? "")\(error.reason)")
        } catch {
            fail(units, kind: "other", "\(error)")
        }
    }

    /// The end of the worker's standard error, for the warning.
    private func errorOutput(_ result: Build_Bazel_Remote_Execution_V2_ActionResult, store: ContentStore) async -> String {
        var text = String(decoding: result.stderrRaw, as: UTF8.self)
        if text.isEmpty, result.hasStderrDigest, result.stderrDigest.sizeBytes <= 1 << 20,
           let bytes = try? await store.read([result.stderrDigest])[result.stderrDigest] {
            text = String(decoding: bytes, as: UTF8.self)
        }
        let tail = text.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " / ")
        return tail.isEmpty ? "" : " (\(tail))"
    }

    private func fail(_ units: [RemoteWorkOrder.Unit], kind: String, _ text: String) {
        tally.withLock {
            $0.failedActions += 1
            $0.unitsLocal += units.count
            $0.consecutiveFailures += 1
        }
        note(kind, text)
    }

    private func note(_ kind: String, _ text: String) {
        tally.withLock { if $0.warnings[kind] == nil { $0.warnings[kind] = text } }
    }
}

extension InputRoot.Content {
    var upload: BlobUpload.Source {
        switch self {
        case .file(let path): .file(path)
        case .bytes(let bytes): .bytes(bytes)
        }
    }
}
