import Delivery
import Foundation
@testable import TesseraClient
import TesseraCore
import Testing

@Suite("TesseraClient against nginx serving the sample build", .serialized)
struct ClientTests {
    /// The bundle a tag's access downloads for the device (its on-demand pack).
    func bundle(holding tag: String, device: String = "iPhone15,2") async throws -> BundleEntry {
        let manifest = try await SampleBuild.manifest()
        let pack = try #require(manifest.packs.first { $0.category == .onDemand && $0.tags.contains(tag) })
        return try #require(manifest.bundles.first { $0.pack == pack.id && $0.device == device })
    }

    @Test("the client's plan equals `tessera query --json` for known and stand-in devices")
    func planEqualsQueryCommand() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let manifestPath = try await SampleBuild.folder.value.appendingPathComponent("manifest.json").path
        for (device, tags) in [("iPhone15,2", ["Green"]), ("iPad12,1", ["Blue", "Square"]), ("iPhone19,1", ["Circle"])] {
            let client = try rig.client(device: device)
            let planned = try await client.plan(tags: tags)
            let process = Process()
            process.executableURL = SampleBuild.packageRoot.appendingPathComponent(".build/debug/tessera")
            process.arguments = ["query", manifestPath, "--device", device, "--tags", tags.joined(separator: ","), "--json"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let cli = try JSONDecoder().decode(BundleQuery.Answer.self, from: data)
            #expect(planned.device == cli.device)
            #expect(planned.bundles == cli.bundles)
            #expect(planned.totalBytes == cli.totalBytes)
            #expect(!planned.bundles.isEmpty)
        }
    }

    @Test("a manifest whose variant path climbs out of the store (listed in a genuine bundle's entries too) is refused as it is decoded, naming it and the field; nothing is downloaded or read; signed by the publisher's own key too",
          arguments: [false, true])
    func traversalInTheManifestIsRefused(signed: Bool) async throws {
        let rig = try await Rig(signed: signed)
        defer { rig.stop() }
        let manifestURL = rig.served.appendingPathComponent("manifest.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        let climb = "variants/" + String(repeating: "../", count: 12) + "etc/passwd"
        var assets = try #require(object["assets"] as? [[String: Any]])
        let index = try #require(assets.firstIndex { ($0["tags"] as? [String])?.contains("Green") == true })
        let name = try #require(assets[index]["name"] as? String)
        var variants = try #require(assets[index]["variants"] as? [[String: Any]])
        for variant in variants.indices { variants[variant]["path"] = climb }
        assets[index]["variants"] = variants
        object["assets"] = assets
        // The bundle's bytes are untouched (size and SHA-256 verify); only its manifest listing lies.
        var bundles = try #require(object["bundles"] as? [[String: Any]])
        for bundle in bundles.indices { bundles[bundle]["entries"] = ((bundles[bundle]["entries"] as? [String]) ?? []) + ["assets/" + String(repeating: "../", count: 12) + "etc/passwd"] }
        object["bundles"] = bundles
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: manifestURL)
        try rig.resign()

        let request = ResourceRequest(tags: ["Green"], client: try rig.client())
        let error = await #expect(throws: TesseraError.self) { try await request.beginAccessing() }
        #expect(error?.kind == .invalidInput && error?.file?.hasPrefix("http://") == true && error?.file?.hasSuffix("/manifest.json") == true
                    && error?.reason.contains("asset \"\(name)\": variant path") == true, "\(String(describing: error))")
        #expect(throws: TesseraError.self) { _ = try request.data(for: name) }
    }

    @Test("an asset's slicing in the manifest (`resizing`) is decoded and exposed for the image it loads; an unsliced one has none; before an access, an error")
    func resizingIsExposed() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let manifestURL = rig.served.appendingPathComponent("manifest.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var assets = try #require(object["assets"] as? [[String: Any]])
        let green = assets.indices.filter { (assets[$0]["tags"] as? [String])?.contains("Green") == true }
        #expect(green.count >= 2)
        let sliced = try #require(green.first), plain = try #require(green.last)
        // As a build writes it (ManifestResizingTests pins the build's side).
        assets[sliced]["resizing"] = ["mode": "3-part-vertical", "center": ["mode": "stretch", "height": 2],
                                      "capInsets": ["top": 12, "left": 0, "bottom": 12.5, "right": 0]]
        object["assets"] = assets
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: manifestURL)
        try rig.resign()
        let slicedName = try #require(assets[sliced]["name"] as? String), plainName = try #require(assets[plain]["name"] as? String)

        let request = ResourceRequest(tags: ["Green"], client: try rig.client())
        #expect(throws: TesseraError.self) { _ = try request.resizing(for: slicedName) }
        try await request.beginAccessing()
        #expect(try request.resizing(for: slicedName) == ImageResizing(
            mode: .threePartVertical, center: .init(mode: .stretch, height: 2), capInsets: .init(top: 12, bottom: 12.5)))
        #expect(try request.resizing(for: plainName) == nil)
        // The image it goes with is the device's variant, as image(named:) loads it.
        #expect(FileManager.default.fileExists(atPath: try request.file(for: slicedName).url.path))
        await request.endAccessing()
    }

    @Test("begin accessing downloads the tag's bundle verified, reads its assets, and reopens offline")
    func beginReadEndAndOfflineReopen() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        let request = ResourceRequest(tags: ["Green"], client: client)
        #expect(await request.conditionallyBeginAccessing() == false)
        try await request.beginAccessing()
        let plan = try await client.plan(tags: ["Green"])
        let needed = plan.bundles.filter { $0.category == .initialInstall || $0.tags.contains("Green") }
        #expect(Set(await client.installedBundles) == Set(needed.map(\.sha256)))
        // Every asset tagged Green reads back as the build's variant file for this device.
        let manifest = try await SampleBuild.manifest()
        let build = try await SampleBuild.folder.value
        for asset in manifest.assets where asset.tags.contains("Green") {
            let data = try request.data(for: asset.name.name)
            let variant = try #require(asset.variants.first { ContentHash.of(data) == $0.sha256 })
            #expect(try Data(contentsOf: build.appendingPathComponent(variant.path)) == data)
            // What image(named:) hands UIKit or AppKit: that file, at the scale the manifest gives it.
            let file = try request.file(for: asset.name.name)
            #expect(try Data(contentsOf: file.url) == data && file.scale == variant.scale.factor)
        }
        // Green Star has a 2x master only (Tessera never upscales): the 3x iPhone15,2 draws it at 2.
        #expect(try request.file(for: "Green Star").scale == 2)
        var last: AccessProgress?
        for await step in request.progress {
            last = step
            if step.completedBytes == step.totalBytes { break }
        }
        #expect(last?.totalBytes == needed.reduce(0) { $0 + $1.bytes })
        let paths = needed.map { "/" + $0.url.split(separator: "/").suffix(3).joined(separator: "/") }
        #expect(rig.proxy.requests.first?.path == "/manifest.json")
        #expect(Set(rig.proxy.requests.dropFirst().map(\.path)) == Set(paths))
        #expect(rig.proxy.requests.count == 1 + needed.count)
        await request.endAccessing()

        // Server gone: a new client on the same store still has the verified manifest and bundle.
        rig.proxy.stop()
        let offline = try rig.client()
        let again = ResourceRequest(tags: ["Green"], client: offline)
        #expect(await again.conditionallyBeginAccessing())
        #expect(!(try again.data(for: "Green Star")).isEmpty)
        try await offline.refreshManifest()
        guard case .offline = await offline.lastRefresh else { Issue.record("expected an offline refresh"); return }
    }

    @Test("an unchanged manifest is not sent again (If-None-Match → 304)")
    func manifestRefreshIsConditional() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .notModified)
        #expect(rig.proxy.requests.map(\.status) == [200, 304])
    }

    @Test("prefetch downloads the prefetch packs in the build's order")
    func prefetchOrder() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client(concurrency: 1)
        let plan = try await client.plan(tags: [])
        try await client.prefetch()
        let fetched = rig.proxy.requests.map(\.path).filter { $0.hasPrefix("/bundles/") }
        let manifest = try await SampleBuild.manifest()
        let expected = plan.bundles.compactMap { item in manifest.bundles.first { $0.pack == item.pack && $0.device == plan.device } }
            .map { "/" + $0.path.replacingOccurrences(of: " ", with: "%20") }
        #expect(fetched == expected)
        #expect(plan.bundles.map(\.category).allSatisfy { $0 == .prefetch || $0 == .initialInstall })
        #expect(Set(await client.installedBundles) == Set(plan.bundles.map(\.sha256)))
    }

    @Test("purge removes unpinned bundles by preservation priority, then least recently used; pinned stay")
    func purgeOrder() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        let green = ResourceRequest(tags: ["Green"], client: client)
        try await green.beginAccessing()
        for tags in [["Red"], ["Blue"], ["Circle"]] {
            let request = ResourceRequest(tags: Set(tags), client: client)
            try await request.beginAccessing()
            await request.endAccessing()
        }
        try await client.setPreservationPriority(0.9, forTags: ["Red"])
        let greenPlan = try await client.plan(tags: ["Green"])
        let pinned = Set(greenPlan.bundles.filter { $0.category == .initialInstall || $0.tags.contains("Green") }.map(\.sha256))
        var tagsOf: [ContentHash: [String]] = [:]
        for item in greenPlan.bundles { tagsOf[item.sha256] = item.tags }
        let before = Set(await client.installedBundles)
        let result = try await client.purge(toFit: 0)
        let order = result.evicted
        #expect(Set(order) == before.subtracting(pinned))
        // Priority 0 first, the oldest use first among them (Blue was accessed before Circle); Red's 0.9 last.
        let red = order.filter { tagsOf[$0]?.contains("Red") == true }
        #expect(!red.isEmpty && Array(order.suffix(red.count)) == red)
        let blue = order.firstIndex { tagsOf[$0] == ["Blue", "Hexagon"] }, circle = order.firstIndex { tagsOf[$0] == ["Circle", "Green"] || tagsOf[$0] == ["Blue", "Circle"] }
        if let blue, let circle { #expect(blue < circle) }
        let greenOnly = pinned
        // The pinned access still reads its assets.
        #expect(!(try green.data(for: "Green Square")).isEmpty)
        #expect(Set(await client.installedBundles).isSuperset(of: greenOnly))
        await green.endAccessing()
        #expect(try await client.purge(toFit: 0).remainingBytes == 0)
    }

    @Test("a store whose state lost track of a bundle reopens consistent, and keeps partial downloads")
    func reopenAfterCrash() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        let request = ResourceRequest(tags: ["Blue"], client: client)
        try await request.beginAccessing()
        await request.endAccessing()
        // As if the app died after a bundle folder was renamed into place but before the state was saved,
        // and in the middle of another download.
        let orphan = rig.store.appendingPathComponent("bundles/\(String(repeating: "ab", count: 32))")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        let partial = rig.store.appendingPathComponent("partial/\(String(repeating: "cd", count: 32)).part")
        try Data([1, 2, 3]).write(to: partial)
        let reopened = try rig.client()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: partial.path))
        let installed = await reopened.installedBundles
        #expect(installed == (await client.installedBundles))
        let bundles = try FileManager.default.contentsOfDirectory(atPath: rig.store.appendingPathComponent("bundles").path)
        #expect(Set(bundles) == Set(installed.map(\.hex)))
    }

    @Test("accesses begun together share the downloads of the bundles they both need")
    func concurrentAccessesShareDownloads() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        try await client.refreshManifest()
        rig.proxy.forget()
        let requests = [ResourceRequest(tags: ["Green"], client: client), ResourceRequest(tags: ["Circle"], client: client),
                        ResourceRequest(tags: ["Blue"], client: client)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in requests { group.addTask { try await request.beginAccessing() } }
            try await group.waitForAll()
        }
        let fetched = rig.proxy.requests.map(\.path).filter { $0.hasPrefix("/bundles/") }
        #expect(fetched.count == Set(fetched).count)
        for request in requests {
            let manifest = try await client.currentManifest()
            for asset in manifest.assets where !request.tags.isDisjoint(with: asset.tags) {
                #expect(!(try request.data(for: asset.name.name)).isEmpty)
            }
            await request.endAccessing()
        }
    }
}
