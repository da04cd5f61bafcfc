import Delivery
import Foundation
@testable import TesseraClient
import TesseraCore
import Testing
import TestServers

/// Updates by delta end to end where `UpdateTests` does not go: a `tessera serve` channel (the
/// update files `tessera publish` uploads, answered beside the channel's manifest), and a changed
/// entry whose object travels as `xz` (a ready bitmap), decoded while it streams.
@Suite("Updates by delta: tessera serve, xz objects", .serialized)
struct UpdateEndToEndTests {
    /// Installs every pack the device has (an access to all tags, ended).
    static func installEverything(_ client: TesseraClient) async throws {
        let tags = Set(try await client.refreshManifest().packs.flatMap(\.tags))
        let request = ResourceRequest(tags: tags, client: client)
        try await request.beginAccessing()
        await request.endAccessing()
    }

    /// The objects of `device`'s bundles in `next` that none of its bundles in `previous` held:
    /// what an update by delta fetches.
    static func objectsToFetch(from previous: URL, to next: URL, device: String) throws -> [TransferObject] {
        let v1 = try Manifest.decode(Data(contentsOf: previous.appendingPathComponent("manifest.json")), source: "v1")
        let v2 = try Manifest.decode(Data(contentsOf: next.appendingPathComponent("manifest.json")), source: "v2")
        let device = try DeviceQuery.answer(v2, device: device, tags: []).device
        let old = BundleEntryObjects(v1), new = BundleEntryObjects(v2)
        let held = Set(v1.bundles.filter { $0.device == device }.flatMap(\.entries).compactMap { old[entry: $0]?.sha256 })
        let objects = v2.bundles.filter { $0.device == device }.flatMap(\.entries).compactMap { new[entry: $0] }
        return Dictionary(objects.filter { !held.contains($0.sha256) }.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
            .values.sorted { $0.sha256 < $1.sha256 }
    }

    static func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(name)-\(UUID().uuidString)")
    }

    @Test("tessera serve: v1 published and installed, v2 (one image changed) published: the device fetches the index, a patch and objects, no bundle and no manifest, D ≤ 1.10 × P + 16 KiB; the store then equals a fresh install of v2 byte for byte")
    func serveChannelUpdatesByDelta() async throws {
        let builds = try await UpdateBuilds.folders.value
        let folder = Self.temporaryFolder("update-serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(folder: folder.path)
        defer { server.stop() }
        // The counting proxy in front of the server: what the device receives, heads included.
        let proxy = try FaultProxy(upstream: server.port)
        defer { proxy.stop() }
        func publish(_ build: URL) async throws {
            let published = try await ServeProcess.run(["publish", build.path, "--server", server.url, "--token-file", server.tokenFile,
                                                        "--channel", "production"])
            #expect(published.status == 0, "\(published.stderr)")
        }
        func client(_ store: URL) throws -> TesseraClient {
            try TesseraClient(configuration: .channel("production", on: proxy.baseURL, storeFolder: store, device: UpdateTests.device))
        }

        try await publish(builds.v1)
        let store = folder.appendingPathComponent("store-updated")
        let device = try client(store)
        try await Self.installEverything(device)
        let before = try UpdateTests.contents(of: store)

        try await publish(builds.v2)
        proxy.forget()
        try await device.refreshManifest()
        #expect(await device.lastRefresh == .updated)
        let paths = proxy.requests.map(\.path)
        let downloaded = proxy.bytesSent
        let changed = try await UpdateTests.changedObjectBytes()
        print("G1 tessera serve: P = \(changed) bytes, D = \(downloaded) bytes (\(paths.count) requests: \(paths.joined(separator: " ")))")
        #expect(paths.contains { $0.hasSuffix("/updates.json") } && paths.contains { $0.contains("/patches/") }, "\(paths)")
        // Each changed object by its name, beside the channel's manifest.
        let wanted = try Self.objectsToFetch(from: builds.v1, to: builds.v2, device: UpdateTests.device)
        #expect(!wanted.isEmpty)
        for object in wanted {
            #expect(paths.contains { $0.hasSuffix("/objects/\(object.sha256.hex)") }, "\(object.sha256.hex) not fetched: \(paths)")
        }
        #expect(!paths.contains { $0.hasSuffix(".tsb") || $0.hasSuffix("/manifest") || $0.hasSuffix("/manifest.json.xz") }, "\(paths)")
        #expect(Double(downloaded) <= 1.10 * Double(changed) + 16384, "\(downloaded) bytes for \(changed): \(paths)")

        let fresh = folder.appendingPathComponent("store-fresh")
        try await Self.installEverything(try client(fresh))
        let updated = try UpdateTests.contents(of: store)
        #expect(updated == (try UpdateTests.contents(of: fresh)), "the updated store differs from a fresh install of v2")
        #expect(updated != before)
    }

    @Test("a changed ready bitmap travels as an xz object: fetched as one, decoded and verified into the new bundle; the store equals a fresh install of v2 and the bitmap is v2's, byte for byte")
    func xzObjectDecodes() async throws {
        let builds = try await UpdateBuilds.bitmapFolders.value
        let served = Self.temporaryFolder("update-xz-served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let store = Self.temporaryFolder("update-xz-store"), fresh = Self.temporaryFolder("update-xz-fresh")
        defer { for folder in [served, store, fresh] { try? FileManager.default.removeItem(at: folder) } }
        try UpdateBuilds.publish(builds.v1, to: served)
        let nginx = try NginxServer(serving: served)
        defer { nginx.stop() }
        let proxy = try FaultProxy(upstream: nginx.port)
        defer { proxy.stop() }
        func client(_ store: URL) throws -> TesseraClient {
            try TesseraClient(configuration: ClientConfiguration(server: proxy.baseURL, storeFolder: store, device: UpdateTests.device,
                                                                 requestTimeout: 10))
        }
        let device = try client(store)
        try await Self.installEverything(device)

        try UpdateBuilds.publish(builds.v2, to: served)
        let v2 = try Manifest.decode(Data(contentsOf: builds.v2.appendingPathComponent("manifest.json")), source: "v2")
        let xz = try Self.objectsToFetch(from: builds.v1, to: builds.v2, device: UpdateTests.device).filter { $0.encoding == .xz }
        try #require(!xz.isEmpty, "v2 changes no entry of the device whose object is xz")
        proxy.forget()
        try await device.refreshManifest()
        #expect(await device.lastRefresh == .updated)
        let paths = proxy.requests.map(\.path)
        let fetchedXZ = xz.filter { object in paths.contains("/objects/\(object.sha256.hex)") }
        #expect(fetchedXZ.count == xz.count, "xz objects not fetched: \(paths)")
        #expect(!paths.contains { $0.hasSuffix(".tsb") }, "fetched a bundle whole: \(paths)")
        for object in fetchedXZ {
            // The object on the wire is smaller than what it decodes to: it was decoded on the way.
            let stored = try Data(contentsOf: builds.v2.appendingPathComponent("objects/\(object.sha256.hex)"))
            #expect(stored.count == object.transferBytes && stored.count < object.bytes)
        }

        // The changed asset's bitmap, read through an access, is v2's file.
        let asset = try #require(v2.assets.first { $0.name.name == "Blue Circle" })
        let request = ResourceRequest(tags: Set(asset.tags), client: device)
        try await request.beginAccessing()
        let bitmap = try request.bitmap(for: "Blue Circle")
        await request.endAccessing()
        #expect(asset.variants.contains { variant in
            variant.readyBitmap.map { (try? Data(contentsOf: builds.v2.appendingPathComponent($0.path))) == bitmap } ?? false
        })
        #expect(xz.contains { ContentHash.of(bitmap) == $0.sha256 })

        try await Self.installEverything(try client(fresh))
        #expect(try UpdateTests.contents(of: store) == (try UpdateTests.contents(of: fresh)), "the updated store differs from a fresh install of v2")
    }
}
