import Delivery
import Foundation
import Signing
import Testing
import TesseraCore
import TesseraClient
import TestServers

/// What a hostile server in place of the CDN may serve once the app pins a root
/// (docs/security.md), each against a client that accepted signed version 5 before.
enum Attack: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case unsigned, tamperedManifest, rehashedBundle, rollback, expired, otherChannel, unknownKey, revokedKey, forgedRootRotation

    var testDescription: String { rawValue }

    /// What the refusal's reason says.
    var reason: String {
        switch self {
        case .unsigned: "unsigned: no signature at"
        case .tamperedManifest, .rehashedBundle: "is not the one signed"
        case .rollback: "rollback: manifest v4 is older than v5"
        case .expired: "expired at"
        case .otherChannel: "signed for channel 'staging', not 'production'"
        case .unknownKey: "which is not among signing keys v1"
        case .revokedKey: "which signing keys v2 revoke"
        case .forgedRootRotation: "root v2 is signed by 0 of root v1's keys"
        }
    }

    /// Changes what `served` holds as the attacker would.
    func apply(to served: URL, trust: ClientTrust) throws {
        let manifestURL = served.appendingPathComponent("manifest.json")
        let original = try Data(contentsOf: manifestURL)
        var object = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        switch self {
        case .unsigned:
            try FileManager.default.removeItem(at: served.appendingPathComponent("manifest.json.sig"))
        case .tamperedManifest:
            object["pipeline"] = "evil"
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: manifestURL)
        case .rehashedBundle:
            // Another bundle's bytes in place of the Green one, the manifest's hash and size rewritten to match.
            var bundles = try #require(object["bundles"] as? [[String: Any]])
            let packs = try #require(object["packs"] as? [[String: Any]])
            let green = try #require(packs.first { ($0["tags"] as? [String])?.contains("Green") == true }?["id"] as? String)
            let target = try #require(bundles.firstIndex { $0["pack"] as? String == green })
            let donor = try #require(bundles.firstIndex { $0["path"] as? String != bundles[target]["path"] as? String })
            let bytes = try Data(contentsOf: served.appendingPathComponent(try #require(bundles[donor]["path"] as? String)))
            try bytes.write(to: served.appendingPathComponent(try #require(bundles[target]["path"] as? String)))
            bundles[target]["sha256"] = ContentHash.of(bytes).hex
            bundles[target]["bytes"] = bytes.count
            object["bundles"] = bundles
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: manifestURL)
        case .rollback:
            // An older build (other bytes), genuinely signed at version 4.
            try (original + Data("\n ".utf8)).write(to: manifestURL)
            try trust.sign(served, version: 4)
        case .expired:
            try trust.sign(served, version: 5, expires: Date() - 60)
        case .otherChannel:
            try trust.sign(served, version: 6, channel: "staging")
        case .unknownKey:
            try trust.sign(served, version: 6, key: KeyFile.generate())
        case .revokedKey:
            let (old, _) = try trust.rotateSigningKey()
            try trust.sign(served, version: 6, key: old)
        case .forgedRootRotation:
            let attacker = KeyFile.generate()
            var forged = trust.chain
            forged.roots.append(try .signing(RootDocument(version: 2, keys: [attacker.trustKey], threshold: 1), with: [attacker]))
            forged.keys = try .signing(SigningKeysDocument(version: 9, expires: TrustTime.format(Date() + 3600),
                                                           keys: [attacker.trustKey], revoked: []), with: [attacker])
            try trust.sign(served, version: 99, key: attacker, chain: forged)
        }
    }
}

@Suite("Signed manifests: a hostile static server against TesseraClient and client-demo", .serialized)
struct SignedManifestTests {
    @Test("each attack is refused by the client with an untrusted error naming the manifest URL and the reason; the store is byte for byte unchanged and the accepted manifest stays in use",
          arguments: Attack.allCases)
    func clientRefuses(_ attack: Attack) async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let trust = try #require(rig.trust)
        try trust.sign(rig.served, version: 5)
        let client = try rig.client()
        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        await request.endAccessing()
        let accepted = try await client.currentManifest()
        let before = snapshot(of: rig.store)
        #expect(before["/trust.json"] != nil && before["/manifest.json.sig"] != nil)

        try attack.apply(to: rig.served, trust: trust)
        let error = await #expect(throws: TesseraError.self) { try await client.refreshManifest() }
        #expect(error?.kind == .untrusted && error?.file == rig.proxy.baseURL.appendingPathComponent("manifest.json").absoluteString,
                "\(String(describing: error))")
        #expect(error?.reason.contains(attack.reason) == true, "\(String(describing: error))")
        await #expect(throws: TesseraError.self) { try await ResourceRequest(tags: ["Blue"], client: client).beginAccessing() }
        #expect(snapshot(of: rig.store) == before)
        #expect(try await client.currentManifest() == accepted)
    }

    @Test("each attack is refused by client-demo --trusted-root: exit 1, the reason and URL printed, the store byte for byte unchanged",
          arguments: Attack.allCases)
    func demoRefuses(_ attack: Attack) async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let trust = try #require(rig.trust)
        try trust.sign(rig.served, version: 5)
        let arguments = ["--server", rig.proxy.baseURL.absoluteString, "--device", "iPhone15,2", "--tags", "Green",
                         "--store", rig.store.path, "--trusted-root", trust.rootFile.path]
        let first = try await runClientDemo(arguments)
        #expect(first.status == 0 && first.output.contains("manifest: updated"), "\(first.output)")
        let before = snapshot(of: rig.store)

        try attack.apply(to: rig.served, trust: trust)
        let refused = try await runClientDemo(arguments)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains(attack.reason) && refused.output.contains("/manifest.json"), "\(refused.output)")
        #expect(snapshot(of: rig.store) == before)
    }

    @Test("the happy path, a rotated signing key and a rotated root are accepted in turn, by the client and by client-demo from the first pinned root")
    func rotationsAccepted() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let trust = try #require(rig.trust)
        let client = try rig.client()
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        #expect(await client.lastRefresh == .updated)

        let (old, new) = try trust.rotateSigningKey()
        try trust.sign(rig.served, version: 2)
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .notModified)  // same manifest bytes, newer signature kept
        let state = try JSONDecoder().decode(TrustState.self, from: Data(contentsOf: rig.store.appendingPathComponent("trust.json")))
        #expect(state.keysVersion == 2 && state.manifestVersion == 2)
        #expect(old.keyid != new.keyid)

        let newRoot = KeyFile.generate()
        trust.chain = try RootCeremony.rotate(trust.chain, oldKeys: [trust.rootKey], newKeys: [newRoot], threshold: 1, source: "chain.json")
        try trust.sign(rig.served, version: 3)
        try await ResourceRequest(tags: ["Blue"], client: client).beginAccessing()
        let rotated = try JSONDecoder().decode(TrustState.self, from: Data(contentsOf: rig.store.appendingPathComponent("trust.json")))
        #expect(rotated.root?.version == 2 && rotated.root?.keys == [newRoot.trustKey] && rotated.manifestVersion == 3)

        let demo = try await runClientDemo(["--server", rig.proxy.baseURL.absoluteString, "--device", "iPhone15,2", "--tags", "Green",
                                      "--store", rig.store.path + "-demo", "--trusted-root", trust.rootFile.path])
        defer { try? FileManager.default.removeItem(atPath: rig.store.path + "-demo") }
        #expect(demo.status == 0 && demo.output.contains("Green Star\t") && demo.output.contains("manifest: updated"), "\(demo.output)")
    }

    @Test("an accepted manifest whose signature then expires is still used offline, reported stale; served again after expiry it is refused")
    func staleOffline() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let trust = try #require(rig.trust)
        try trust.sign(rig.served, version: 2, expires: Date() + 2)
        let client = try rig.client(timeout: 2)
        try await client.refreshManifest()
        try await Task.sleep(for: .seconds(3))
        await #expect(throws: TesseraError.self) { try await client.refreshManifest() }
        rig.proxy.stop()
        let offline = try rig.client(timeout: 2)
        try await offline.refreshManifest()
        guard case .stale(let reason) = await offline.lastRefresh else {
            Issue.record("expected a stale refresh, got \(String(describing: await offline.lastRefresh))")
            return
        }
        #expect(reason.contains("expired at"))
        #expect(try await offline.plan(tags: ["Green"]).bundles.isEmpty == false)
    }

    @Test("with no root pinned nothing changes: no signature is asked for or kept, and a signed build loads as an unsigned one")
    func unsignedUnchanged() async throws {
        let rig = try await Rig(signed: true)
        defer { rig.stop() }
        let client = try TesseraClient(configuration: ClientConfiguration(server: rig.proxy.baseURL, storeFolder: rig.store, device: "iPhone15,2"))
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        #expect(!rig.proxy.requests.contains { $0.path.hasSuffix(".sig") })
        let kept = snapshot(of: rig.store).keys
        #expect(!kept.contains("/trust.json") && !kept.contains("/manifest.json.sig") && kept.contains("/manifest.json"))
        // Tampered, with no root pinned, is what it always was: accepted.
        try FileManager.default.removeItem(at: rig.served.appendingPathComponent("manifest.json.sig"))
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .notModified)
    }
}
