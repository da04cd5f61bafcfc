import Foundation
import Testing
import TesseraCore
import TesseraClient
import TestServers

/// Answers dripped a byte at a time, never idle for the read timeout (issue 54, item 7): the
/// client has a deadline for each whole answer, falls back to the kept manifest, and counts a
/// bundle attempt that ran out of it as failed although it made progress.
@Suite("Slow answers", .serialized)
struct SlowAnswerTests {
    @Test("a manifest dripped a byte every 0.3 s fails at the whole answer's deadline; the kept manifest is used, as offline")
    func slowManifestFallsBack() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let client = try rig.client(timeout: 2, responseDeadline: 3)
        let kept = try await client.refreshManifest()
        // A new build on the server (other bytes): not a 304.
        let manifestURL = rig.served.appendingPathComponent("manifest.json")
        try (try Data(contentsOf: manifestURL) + Data("\n".utf8)).write(to: manifestURL)
        try rig.resign()
        rig.proxy.enqueue(.drip(interval: 0.3))
        let started = Date()
        let used = try await client.refreshManifest()
        let seconds = Date().timeIntervalSince(started)
        #expect(used == kept)
        guard case .offline(let reason)? = await client.lastRefresh else {
            Issue.record("not offline: \(String(describing: await client.lastRefresh))")
            return
        }
        #expect(reason.contains("did not arrive within 3 s"), "\(reason)")
        #expect(seconds < 20, "took \(seconds) s against a 3 s deadline")
    }

    @Test("a bundle dripped a byte every 0.2 s: each attempt ends at its deadline and counts, so the download gives up, naming the reason")
    func slowBundleGivesUp() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client(attempts: 2, timeout: 2, responseDeadline: 2, minimumBytesPerSecond: 1 << 20)
        _ = try await client.refreshManifest()
        rig.proxy.forget()
        // Every answer dripped: the manifest's (a 304, no body) and each attempt at each bundle.
        for _ in 0..<12 { rig.proxy.enqueue(.drip(interval: 0.2)) }
        let started = Date()
        let error = await #expect(throws: TesseraError.self) {
            try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        }
        #expect(error?.reason.contains("too slow") == true && error?.reason.contains("gave up after 2 failed attempts") == true,
                "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 30, "\(rig.proxy.requests.map { "\($0.path) \($0.status)" })")
    }
}
