@testable import BuildCache
import Foundation
import JobEngine
import Pipeline
import RemoteExecution
import Testing
import TestServers
import TesseraCore

/// Issue 54, item 9: an executor's entry is taken only where it belongs. A hostile executor
/// (`HostileExecutor`: casd answering from an action cache rewritten after an honest run) that
/// files another job's entry under each key, or one writing `manifest.json.sig`, is a miss with a
/// warning; the build and the builds after it on that cache are the local build's bytes.
extension RemoteExecutionTests {
    @Test("an executor handing back another job's entry of the same stage under each key, or one writing manifest.json.sig: not taken, one warning, the same bytes now and in later builds",
          .timeLimit(.minutes(10)))
    func misfiledResultsAreRefused() async throws {
        _ = try ReapiServers.installation
        let build = try RemoteBuild()
        _ = try await build.build("reference", cache: nil)
        let expected = build.files("reference").filter { $0.key != "size-report.html" }
        let server = try RemoteBuild.casd(jobs: 2)
        defer { server.stop() }
        let honest = try build.cache("honest")
        let first = try await build.build("honest", cache: honest, executor: try build.executor(server.url, cache: honest))
        #expect(first.exitStatus == 0)
        let hostile = try HostileExecutor(server)

        // Another job's entry under each key, every blob matching its digest.
        let moved = try await hostile.rewrite(HostileExecutor.misfiled)
        #expect(moved > 0, "no action held two entries of one stage")
        let misfiled = try build.cache("misfiled")
        let executor = try build.executor(server.url, cache: misfiled)
        let outcome = try await build.build("misfiled", cache: misfiled, executor: executor)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures)")
        #expect(build.files("misfiled", warned: true) == expected)
        let warnings = outcome.report.warnings.filter { $0.stage == .execute }
        #expect(warnings.contains { $0.reason.contains("not their jobs'") && $0.reason.contains("was made under key") }, "\(warnings)")
        // The cache holds no wrong entry: a later build without the executor is the same.
        let later = try await build.build("misfiled-later", cache: misfiled)
        #expect(later.exitStatus == 0, "\(later.report.failures)")
        #expect(build.files("misfiled-later") == build.files("reference"))

        // An entry writing a path no job of its action writes.
        try hostile.restore()
        let escaped = try await hostile.rewrite(HostileExecutor.escaping)
        #expect(escaped > 0)
        let escaping = try build.cache("escaping")
        let second = try build.executor(server.url, cache: escaping)
        let result = try await build.build("escaping", cache: escaping, executor: second)
        #expect(result.exitStatus == 0, "\(result.report.failures)")
        #expect(build.files("escaping", warned: true) == expected)
        #expect(!FileManager.default.fileExists(atPath: "\(build.output("escaping"))/manifest.json.sig"))
        let said = result.report.warnings.filter { $0.stage == .execute }
        #expect(said.contains { $0.reason.contains("writes manifest.json.sig") }, "\(said)")
    }

    @Test("a cache holding another job's entry under a key (poisoned before) is repaired by the next build: a warning, the job built again, the same bytes")
    func misfiledEntryInTheCacheIsReplaced() async throws {
        let build = try RemoteBuild()
        let cache = try build.cache("poisoned")
        let first = try await build.build("first", cache: cache)
        #expect(first.exitStatus == 0)
        // Two variants' entries: the second's bytes filed under the first's key as well.
        let entries = try #require(FileManager.default.enumerator(atPath: "\(cache.folder.path)/ac")?.allObjects as? [String])
        let variants = entries.filter { name in
            let bytes = BlobCopy.read("\(cache.folder.path)/ac/\(name)")
            return bytes.flatMap(ActionEntry.parse).map { $0.stage == "write" } ?? false
        }.sorted()
        #expect(variants.count >= 2)
        let other = try #require(BlobCopy.read("\(cache.folder.path)/ac/\(variants[1])"))
        try Data(other).write(to: URL(fileURLWithPath: "\(cache.folder.path)/ac/\(variants[0])"))

        let repaired = try await build.build("repaired", cache: try build.cache("poisoned"))
        #expect(repaired.exitStatus == 0, "\(repaired.report.failures)")
        #expect(build.files("repaired", warned: true) == build.files("first").filter { $0.key != "size-report.html" })
        #expect(repaired.report.warnings.contains { $0.reason.contains("another job's") }, "\(repaired.report.warnings)")
        let again = try await build.build("again", cache: try build.cache("poisoned"))
        #expect(build.files("again") == build.files("first"))
        #expect(!again.report.warnings.contains { $0.reason.contains("another job's") }, "\(again.report.warnings)")
    }
}
