import BuildCache
import Foundation
import JobEngine
import Pipeline
import RemoteAPI
import RemoteExecution
import Testing
import TestServers
import TesseraCore

/// Remote execution against real servers: buildbox-casd running actions in its bubblewrap
/// sandbox, and BuildGrid with its PostgreSQL scheduler and Remote Workers API bots.
@Suite("Remote execution on buildbox-casd and BuildGrid", .serialized)
struct RemoteExecutionTests {
    /// The local `--no-cache` build every remote one must equal, byte for byte.
    private func reference(_ build: RemoteBuild) async throws -> [String: Data] {
        let outcome = try await build.build("reference", cache: nil)
        #expect(outcome.exitStatus == 0)
        return build.files("reference")
    }

    @Test("a build executed on casd equals a local --no-cache build; a second machine hits the executor's action cache, a third the results in its cache")
    func casdBuildEqualsLocal() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild(addingVectors: true)
        let expected = try await reference(build)
        let server = try RemoteBuild.casd(jobs: 2)
        defer { server.stop() }

        // As `run --remote-executor` does without `--remote-cache`: the executor's server is the remote cache.
        let endpoint = try #require(RemoteEndpoint(url: server.url))
        let cache = try build.cache("first", remote: try RemoteCache.reapi(endpoint))
        let executor = try build.executor(server.url, cache: cache)
        let outcome = try await build.build("remote", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures)")
        #expect(build.files("remote") == expected)
        let tally = executor.summary
        #expect(tally.actions >= 3 && tally.failedActions == 0, "\(tally)")
        #expect(tally.entriesAdopted > 0)
        // Only the SVG's unit (the static worker has no librsvg) was built here.
        #expect(tally.unitsLocal == 1, "\(tally)")
        #expect(outcome.report.warnings.filter { $0.stage == .execute }.isEmpty, "\(outcome.report.warnings)")
        #expect(RemoteBuild.localWork(outcome) <= 3, "\(outcome.report.cache ?? [:])")

        // A second machine (an empty cache): every action is the server's action-cache hit.
        let second = try build.cache("second")
        let again = try build.executor(server.url, cache: second)
        let repeated = try await build.build("again", cache: second, executor: again)
        #expect(repeated.exitStatus == 0)
        #expect(build.files("again") == expected)
        #expect(again.summary.cachedActions == again.summary.actions && again.summary.actions == tally.actions, "\(again.summary)")

        // With TESSERA_REMOTE_CACHE_KEY the action cache is not believed: every action runs again.
        let keyed = try build.cache("keyed")
        let unbelieving = try build.executor(server.url, cache: keyed, trustsActionCache: false)
        _ = try await build.build("keyed", cache: keyed, executor: unbelieving)
        #expect(build.files("keyed") == expected)
        #expect(unbelieving.summary.cachedActions == 0 && unbelieving.summary.actions == tally.actions, "\(unbelieving.summary)")

        // A third machine without the executor, the server as its remote cache: every result is there.
        let third = try build.cache("third", remote: try RemoteCache.reapi(endpoint))
        let later = try await build.build("later", cache: third)
        #expect(build.files("later") == expected)
        let counts = later.report.cache ?? [:]
        #expect(counts.filter { $0.key != .plan }.values.allSatisfy { $0.misses == 0 }, "\(counts)")
    }

    @Test("an executor that cannot be reached, or that does not execute, leaves one warning and the same bytes")
    func unreachableExecutorFallsBack() async throws {
        let build = try RemoteBuild()
        let expected = try await reference(build)
        // A port bound and never listened on: connections are refused at once.
        let socket = try RefusingPort()
        defer { socket.close() }
        let cache = try build.cache("refused")
        let executor = try build.executor("grpc://127.0.0.1:\(socket.port)", cache: cache)
        let outcome = try await build.build("refused", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 0)
        #expect(build.files("refused", warned: true) == expected.filter { $0.key != "size-report.html" })
        let warnings = outcome.report.warnings.filter { $0.stage == .execute }
        #expect(warnings.count == 1 && warnings[0].reason.contains("127.0.0.1:\(socket.port)"), "\(warnings)")
        #expect(executor.summary.actions == 0)

        _ = try ReapiServers.installation
        let cacheOnly = try BuildGridServer(mode: .cacheOnly)
        defer { cacheOnly.stop() }
        let second = try build.cache("cache-only")
        let notExecuting = try build.executor(cacheOnly.url, cache: second)
        let local = try await build.build("cache-only", cache: second, executor: notExecuting)
        #expect(build.files("cache-only", warned: true) == expected.filter { $0.key != "size-report.html" })
        let said = local.report.warnings.filter { $0.stage == .execute }
        #expect(said.count == 1 && said[0].reason.contains("does not execute"), "\(said)")
    }

    @Test("casd killed during a build: the actions left are built here, with one warning, and the bytes are the same")
    func serverGoneMidBuild() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        let expected = try await reference(build)
        let server = try RemoteBuild.casd(jobs: 1)
        let cache = try build.cache("killed")
        let executor = try build.executor(server.url, cache: cache, unitsPerAction: 1, inFlight: 1)
        let killer = Task {
            // Long enough for the first actions to be on their way.
            try await Task.sleep(for: .seconds(2))
            server.kill()
        }
        let outcome = try await build.build("killed", cache: cache, executor: executor)
        _ = try? await killer.value
        server.stop()
        #expect(outcome.exitStatus == 0)
        #expect(build.files("killed", warned: true) == expected.filter { $0.key != "size-report.html" })
        #expect(executor.summary.unitsLocal > 0, "\(executor.summary)")
        #expect(outcome.report.warnings.filter { $0.stage == .execute }.count >= 1)
    }

    @Test("a blob damaged in the executor's CAS is not taken: its job is built here and the bytes are the same")
    func damagedResultIsRefused() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        let expected = try await reference(build)
        let server = try RemoteBuild.casd(jobs: 2)
        defer { server.stop() }
        let first = try build.cache("clean")
        _ = try await build.build("clean", cache: first, executor: try build.executor(server.url, cache: first))
        // Every PNG blob in casd's store gets one byte changed (casd keeps blobs as files by hash).
        var damaged = 0
        let objects = server.workFolder.appendingPathComponent("cache/cas/objects").path
        for case let name as String in FileManager.default.enumerator(atPath: objects)?.allObjects ?? [] {
            let path = "\(objects)/\(name)"
            guard var bytes = FileManager.default.contents(atPath: path), bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]),
                  bytes.count > 64 else { continue }
            bytes[bytes.count - 20] ^= 0xFF
            try? FileManager.default.removeItem(atPath: path)
            #expect(FileManager.default.createFile(atPath: path, contents: bytes))
            damaged += 1
        }
        #expect(damaged > 0)
        let second = try build.cache("damaged")
        let executor = try build.executor(server.url, cache: second)
        let outcome = try await build.build("damaged", cache: second, executor: executor)
        #expect(outcome.exitStatus == 0)
        #expect(build.files("damaged", warned: true) == expected.filter { $0.key != "size-report.html" })
        #expect(RemoteBuild.localWork(outcome) > 0, "damaged blobs were adopted")
        let warnings = outcome.report.warnings.filter { $0.stage == .execute }
        #expect(warnings.count == 1 && warnings[0].reason.contains("do not match their digests"), "\(warnings)")
    }

    @Test("a build executed by BuildGrid's scheduler and two workers equals a local --no-cache build")
    func buildGridBuildEqualsLocal() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        let expected = try await reference(build)
        let server = try BuildGridServer(mode: .execution(bots: 2))
        defer { server.stop() }
        let cache = try build.cache("buildgrid")
        let executor = try build.executor(server.url, cache: cache, platform: ["OSFamily": "linux", "ISA": "x86-64"])
        let outcome = try await build.build("buildgrid", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures)")
        #expect(build.files("buildgrid") == expected)
        #expect(executor.summary.actions >= 3 && executor.summary.failedActions == 0, "\(executor.summary)")
        #expect(RemoteBuild.localWork(outcome) == 0, "\(outcome.report.cache ?? [:])")

        // A platform no bot offers stays queued for ever on BuildGrid: the call's deadline ends it.
        let queued = try build.cache("queued")
        let nobody = try build.executor(server.url, cache: queued, platform: ["OSFamily": "windows", "ISA": "x86-64"],
                                        executeTimeout: .seconds(6))
        let waited = try await build.build("queued", cache: queued, executor: nobody)
        #expect(build.files("queued", warned: true) == expected.filter { $0.key != "size-report.html" })
        #expect(nobody.summary.failedActions > 0 && nobody.summary.entriesAdopted == 0, "\(nobody.summary)")
        #expect(waited.report.warnings.filter { $0.stage == .execute }.count == 1, "\(waited.report.warnings)")
    }

    @Test("a worker of another build refuses the action: one warning, no further action sent, the same bytes")
    func workerOfAnotherBuild() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        let expected = try await reference(build)
        let server = try RemoteBuild.casd()
        defer { server.stop() }
        let cache = try build.cache("other-build")
        let executor = try build.executor(server.url, cache: cache, unitsPerAction: 1, inFlight: 1,
                                          expectedWorker: "tessera 0.0.1 (another commit)")
        let outcome = try await build.build("other-build", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 0)
        #expect(build.files("other-build", warned: true) == expected.filter { $0.key != "size-report.html" })
        let warnings = outcome.report.warnings.filter { $0.stage == .execute }
        #expect(warnings.count == 1 && warnings[0].reason.contains("not the build of this tessera")
                && warnings[0].reason.contains("another commit"), "\(warnings)")
        // The first refusal stops the rest: one action was sent, every other unit built here unsent.
        #expect(executor.summary.failedActions == 1 && executor.summary.entriesAdopted == 0, "\(executor.summary)")
    }

    @Test("a worker asked for units its plan does not have says so (exit 2), and a malformed list is refused")
    func unknownUnits() async throws {
        let build = try RemoteBuild()
        let list = "\(build.workspace.root)/units"
        try Data((String(repeating: "ab", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: list))
        let unknown = try await TesseraProcess.run(["run", RemoteBuild.pipeline, "--input", build.workspace.input,
                                              "--output", build.output("units"), "--units", list, "--progress", "quiet"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("is not in this plan"), "\(unknown.stderr)")
        try Data("not-a-unit\n".utf8).write(to: URL(fileURLWithPath: list))
        let malformed = try await TesseraProcess.run(["run", RemoteBuild.pipeline, "--input", build.workspace.input,
                                                "--output", build.output("units2"), "--units", list])
        #expect(malformed.status == 2 && malformed.stderr.contains("not-a-unit"), "\(malformed.stderr)")
    }

    @Test("a platform value casd's sandbox refuses (inside a successful stream) is one warning, and the units are built here")
    func refusedPlatform() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        let expected = try await reference(build)
        let server = try RemoteBuild.casd()
        defer { server.stop() }
        let cache = try build.cache("platform")
        let executor = try build.executor(server.url, cache: cache, platform: ["OSFamily": "Linux"])
        let outcome = try await build.build("platform", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 0)
        #expect(build.files("platform", warned: true) == expected.filter { $0.key != "size-report.html" })
        let warnings = outcome.report.warnings.filter { $0.stage == .execute }
        #expect(warnings.count == 1 && warnings[0].reason.contains("OSFamily"), "\(warnings)")
        #expect(executor.summary.entriesAdopted == 0)
    }

    @Test("a corrupt master in a batch fails here with its own error; the rest of its batch is adopted")
    func badAssetInABatch() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        // A PNG whose image data is cut short: its decode fails wherever it runs.
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(build.workspace.input)/Assets/box/BoxLid@3x.png"))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: "\(build.workspace.input)/Assets/broken@3x.png"))
        let local = try await build.build("reference", cache: nil)
        #expect(local.exitStatus == 1)
        let server = try RemoteBuild.casd()
        defer { server.stop() }
        let cache = try build.cache("broken")
        let executor = try build.executor(server.url, cache: cache, unitsPerAction: 100)
        let outcome = try await build.build("broken", cache: cache, executor: executor)
        #expect(outcome.exitStatus == 1)
        #expect(outcome.report.failures == local.report.failures, "\(outcome.report.failures)")
        #expect(build.files("broken") == build.files("reference"))
        // One action held every unit; everything but the broken asset came back from it.
        #expect(executor.summary.actions == 1 && executor.summary.entriesAdopted > 40, "\(executor.summary)")
        // The broken asset's own three (its 3x copied, its 2x and 1x written), tried again here.
        #expect(RemoteBuild.localWork(outcome) == 3, "\(outcome.report.cache ?? [:])")
    }
}
