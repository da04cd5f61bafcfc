import Delivery
import Foundation
@testable import TesseraClient
import TesseraCore
import Testing
import TestServers

/// A device updating by delta (`docs/updates.md`, issue 55) from nginx serving the output
/// folder, with a byte-counting proxy in front: what it downloads, that the result is a fresh
/// install's byte for byte, and that every refused file falls back or leaves the store as it was.
@Suite("Updates by delta against nginx", .serialized)
struct UpdateTests {
    static let device = "iPhone15,2"

    /// nginx serving `served` (v1 at first), the proxy, a store.
    final class UpdateRig: @unchecked Sendable {
        let served: URL
        let nginx: NginxServer
        let proxy: FaultProxy
        let store: URL

        init() async throws {
            served = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-update-served-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
            try UpdateBuilds.publish(try await UpdateBuilds.folders.value.v1, to: served)
            nginx = try NginxServer(serving: served)
            proxy = try FaultProxy(upstream: nginx.port)
            store = Self.newStore()
        }

        static func newStore() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("tessera-update-store-\(UUID().uuidString)")
        }

        func client(store: URL? = nil, attempts: Int = 2) throws -> TesseraClient {
            try TesseraClient(configuration: ClientConfiguration(server: proxy.baseURL, storeFolder: store ?? self.store,
                                                                 device: UpdateTests.device, attemptsPerBundle: attempts,
                                                                 requestTimeout: 10))
        }

        /// Installs every pack the device has (an access to all tags, ended).
        func installEverything(_ client: TesseraClient) async throws {
            let tags = Set(try await client.refreshManifest().packs.flatMap(\.tags))
            let request = ResourceRequest(tags: tags, client: client)
            try await request.beginAccessing()
            await request.endAccessing()
        }

        func stop() {
            proxy.stop()
            nginx.stop()
            try? FileManager.default.removeItem(at: served)
            try? FileManager.default.removeItem(at: store)
        }
    }

    /// The store's installed bundles and manifest: what must be a fresh install's after an update.
    static func contents(of store: URL) throws -> [String: Data] {
        var files = try UpdateBuilds.files(under: store.appendingPathComponent("bundles")).reduce(into: [String: Data]()) {
            $0["bundles/" + $1.key] = $1.value
        }
        files["manifest.json"] = try Data(contentsOf: store.appendingPathComponent("manifest.json"))
        return files
    }

    /// P: the transfer bytes of the objects the device's v2 bundles hold that none of its v1
    /// bundles did (each once).
    static func changedObjectBytes() async throws -> Int {
        let builds = try await UpdateBuilds.folders.value
        let v1 = try Manifest.decode(Data(contentsOf: builds.v1.appendingPathComponent("manifest.json")), source: "v1")
        let v2 = try Manifest.decode(Data(contentsOf: builds.v2.appendingPathComponent("manifest.json")), source: "v2")
        let device = try DeviceQuery.answer(v2, device: device, tags: []).device
        let old = BundleEntryObjects(v1), new = BundleEntryObjects(v2)
        let held = Set(v1.bundles.filter { $0.device == device }.flatMap(\.entries).compactMap { old[entry: $0]?.sha256 })
        var changed: [ContentHash: Int] = [:]
        for bundle in v2.bundles where bundle.device == device {
            for entry in bundle.entries {
                let object = try #require(new[entry: entry])
                if !held.contains(object.sha256) { changed[object.sha256] = object.transferBytes }
            }
        }
        return changed.values.reduce(0, +)
    }

    @Test("one image changed: the device downloads the index, a patch and the changed object (D ≤ 1.10 × P + 16 KiB), no manifest, no bundle; the store then equals a fresh install of v2 byte for byte (G1)")
    func oneImageChanged() async throws {
        let rig = try await UpdateRig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let client = try rig.client()
        try await rig.installEverything(client)
        let before = try Self.contents(of: rig.store)

        try UpdateBuilds.publish(builds.v2, to: rig.served)
        rig.proxy.forget()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        let downloaded = rig.proxy.bytesSent
        let paths = rig.proxy.requests.map(\.path)
        let changed = try await Self.changedObjectBytes()
        #expect(changed > 4096, "the change is the 4 KiB text chunk and more")
        let v1 = try Manifest.decode(Data(contentsOf: builds.v1.appendingPathComponent("manifest.json")), source: "v1")
        let v2Bytes = try Data(contentsOf: builds.v2.appendingPathComponent("manifest.json"))
        let v2 = try Manifest.decode(v2Bytes, source: "v2")
        let device = try DeviceQuery.answer(v2, device: Self.device, tags: []).device
        let wholeBundles = v2.bundles.filter { $0.device == device && !v1.bundles.map(\.sha256).contains($0.sha256) }.reduce(0) { $0 + $1.bytes }
        print("G1 nginx: P = \(changed) bytes, D = \(downloaded) bytes (\(paths.count) requests: \(paths.joined(separator: " "))); whole-bundle path: \(wholeBundles + v2Bytes.count) bytes (bundles \(wholeBundles) + manifest.json \(v2Bytes.count)) before HTTP heads")
        #expect(Double(downloaded) <= 1.10 * Double(changed) + 16384, "\(downloaded) bytes for \(changed): \(paths)")
        #expect(paths.first == "/updates.json" && paths.contains { $0.hasPrefix("/patches/") })
        #expect(!paths.contains { $0.hasSuffix(".tsb") || $0 == "/manifest.json" || $0 == "/manifest.json.xz" }, "\(paths)")

        let fresh = UpdateRig.newStore()
        defer { try? FileManager.default.removeItem(at: fresh) }
        try await rig.installEverything(try rig.client(store: fresh))
        let updated = try Self.contents(of: rig.store)
        #expect(updated == (try Self.contents(of: fresh)), "the updated store differs from a fresh install of v2")
        #expect(updated != before)
        #expect(try Data(contentsOf: rig.store.appendingPathComponent("manifest.json")) == Data(contentsOf: builds.v2.appendingPathComponent("manifest.json")))
    }

    @Test("a build that changes nothing for the device costs it at most 4 KiB (G2); asking again costs the index alone")
    func unchangedBuild() async throws {
        let rig = try await UpdateRig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        try UpdateBuilds.publish(builds.v2, to: rig.served)
        let client = try rig.client()
        try await rig.installEverything(client)
        let bundles = try Self.contents(of: rig.store).filter { $0.key.hasPrefix("bundles/") }

        try UpdateBuilds.publish(builds.v3, to: rig.served)
        rig.proxy.forget()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        let downloaded = rig.proxy.bytesSent
        print("G2 nginx: D = \(downloaded) bytes (\(rig.proxy.requests.map(\.path).joined(separator: " ")))")
        #expect(downloaded <= 4096, "\(rig.proxy.requests)")
        #expect(try Self.contents(of: rig.store).filter { $0.key.hasPrefix("bundles/") } == bundles)

        rig.proxy.forget()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .notModified)
        #expect(rig.proxy.requests.map(\.path) == ["/updates.json"])
        print("G2 nginx, nothing new: D = \(rig.proxy.bytesSent) bytes")
        #expect(rig.proxy.bytesSent <= 2048)
    }

    @Test("a forged patch falls back to manifest.json.xz; a forged object falls back to its whole bundle: the store still ends as a fresh install of v2")
    func forgedFilesFallBack() async throws {
        let rig = try await UpdateRig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let client = try rig.client()
        try await rig.installEverything(client)

        try UpdateBuilds.publish(builds.v2, to: rig.served)
        // The patch's instructions flipped, the changed objects' bytes flipped: each is refused.
        let patches = try FileManager.default.contentsOfDirectory(atPath: rig.served.appendingPathComponent("patches").path)
        for name in patches { try Self.flipLastByte(rig.served.appendingPathComponent("patches/\(name)")) }
        for object in try await Self.changedObjects() { try Self.flipLastByte(rig.served.appendingPathComponent(object.path)) }
        rig.proxy.forget()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        let paths = rig.proxy.requests.map(\.path)
        #expect(paths.contains("/manifest.json.xz") && paths.contains { $0.hasSuffix(".tsb") }, "\(paths)")

        let fresh = UpdateRig.newStore()
        defer { try? FileManager.default.removeItem(at: fresh) }
        try UpdateBuilds.publish(builds.v2, to: rig.served)
        try await rig.installEverything(try rig.client(store: fresh))
        #expect(try Self.contents(of: rig.store) == (try Self.contents(of: fresh)))
    }

    @Test("an object and its bundle both missing (404): the refresh reports it offline naming the URL and the reason, and the store stays on v1, byte for byte")
    func missingObjectLeavesTheStore() async throws {
        let rig = try await UpdateRig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let client = try rig.client()
        try await rig.installEverything(client)
        let before = try Self.contents(of: rig.store)
        let v1 = try await client.currentManifest()

        try UpdateBuilds.publish(builds.v2, to: rig.served)
        let v2 = try Manifest.decode(Data(contentsOf: builds.v2.appendingPathComponent("manifest.json")), source: "v2")
        for object in try await Self.changedObjects() { try FileManager.default.removeItem(at: rig.served.appendingPathComponent(object.path)) }
        for bundle in v2.bundles where !v1.bundles.contains(where: { $0.sha256 == bundle.sha256 }) {
            try? FileManager.default.removeItem(at: rig.served.appendingPathComponent(bundle.path))
        }
        let manifest = try await client.refreshManifest()
        #expect(manifest == v1)
        guard case .offline(let reason) = await client.lastRefresh else {
            Issue.record("expected offline, got \(String(describing: await client.lastRefresh))")
            return
        }
        #expect(reason.contains("HTTP 404") && reason.contains(rig.proxy.baseURL.absoluteString + "/bundles/")
                && reason.contains("/objects/"), "\(reason)")
        #expect(try Self.contents(of: rig.store) == before)
        // A request after it sees v1 still, and its bundles.
        let request = ResourceRequest(tags: Set(v1.packs.flatMap(\.tags)), client: client)
        #expect(await request.conditionallyBeginAccessing())
        await request.endAccessing()
    }

    /// The objects the device's changed v2 bundles lack.
    static func changedObjects() async throws -> [TransferObject] {
        let builds = try await UpdateBuilds.folders.value
        let v1 = try Manifest.decode(Data(contentsOf: builds.v1.appendingPathComponent("manifest.json")), source: "v1")
        let v2 = try Manifest.decode(Data(contentsOf: builds.v2.appendingPathComponent("manifest.json")), source: "v2")
        let held = Set((v1.objects ?? []).map(\.sha256))
        return (v2.objects ?? []).filter { !held.contains($0.sha256) }
    }

    static func flipLastByte(_ file: URL) throws {
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: file)
    }
}
