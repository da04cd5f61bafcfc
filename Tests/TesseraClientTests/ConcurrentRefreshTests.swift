import Delivery
import Foundation
import Testing
import TesseraCore
@testable import TesseraClient
import TestServers

/// Refreshes of one store that overlap (two requests in an app — the client actor is reentrant
/// across awaits — or the app and its Background Assets extension on one store): the trust state
/// never moves backwards, and a rollback is still refused (issue 54).
@Suite("Refreshes of one store", .serialized)
struct ConcurrentRefreshTests {
    @Test("a refresh that fetched v1 and commits after another accepted v2 leaves the store on v2 and answers it; a v1 fetched after v2 was accepted is still a rollback")
    func lateCommitNeverRollsBack() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let client = try rig.client()
        _ = try await client.refreshManifest()
        // What a slow refresh fetched before the server moved on: v1's bytes and signature.
        let manifestURL = rig.served.appendingPathComponent("manifest.json")
        let v1 = try Data(contentsOf: manifestURL)
        let v1Sidecar = Array(try Data(contentsOf: rig.served.appendingPathComponent("manifest.json.sig")))
        try (v1 + Data("\n".utf8)).write(to: manifestURL)
        try rig.resign()
        let v2 = try await client.refreshManifest()
        let state = { try JSONDecoder().decode(TrustState.self, from: Data(contentsOf: rig.store.appendingPathComponent("trust.json"))) }
        #expect(try state().manifestVersion == 2)
        let keptBytes = try Data(contentsOf: rig.store.appendingPathComponent("manifest.json"))

        // The slow refresh began at v1 and commits now: the store keeps v2, and v2 is its answer.
        let manifests = client.manifests
        let late = try manifests.commit(v1, kept: nil, sidecar: v1Sidecar,
                                        head: HTTPStream.Head(status: 200, headers: [:]), since: 1)
        #expect(late.0 == v2 && late.1 == .notModified)
        #expect(try state().manifestVersion == 2)
        #expect(try Data(contentsOf: rig.store.appendingPathComponent("manifest.json")) == keptBytes)

        // A refresh that began after v2 was accepted and got v1 is served a rollback: refused.
        let error = #expect(throws: TesseraError.self) {
            _ = try manifests.commit(v1, kept: nil, sidecar: v1Sidecar,
                                     head: HTTPStream.Head(status: 200, headers: [:]), since: 2)
        }
        #expect(error?.kind == .untrusted && error?.reason.contains("rollback") == true, "\(String(describing: error))")
        #expect(try state().manifestVersion == 2)
    }

    @Test("a refresh waits for the store's lock, which another process may hold, before it checks and writes")
    func refreshTakesTheStoreLock() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let client = try rig.client()
        _ = try await client.refreshManifest()
        try rig.resign()
        // Another holder (the app's extension, say) keeps the lock for a second.
        let held = Date()
        let holder = Thread {
            FileLock.withExclusive(rig.store.appendingPathComponent("manifest.lock").path) { Thread.sleep(forTimeInterval: 1) }
        }
        holder.start()
        try await Task.sleep(for: .milliseconds(200))
        _ = try await client.refreshManifest()
        #expect(Date().timeIntervalSince(held) >= 1, "the refresh wrote while another held the store's lock")
        #expect(try JSONDecoder().decode(TrustState.self, from: Data(contentsOf: rig.store.appendingPathComponent("trust.json"))).manifestVersion == 2)
    }
}
