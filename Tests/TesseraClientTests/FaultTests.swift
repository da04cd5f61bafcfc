import Delivery
import Foundation
@testable import TesseraClient
import TesseraCore
import Testing

@Suite("TesseraClient under injected faults", .serialized)
struct FaultTests {
    /// The first bundle an access to Green fetches (downloads run in plan order, one at a time here).
    func greenBundle() async throws -> BundleEntry {
        let manifest = try await SampleBuild.manifest()
        let answer = try DeviceQuery.answer(manifest, device: "iPhone15,2", tags: ["Green"])
        let item = try #require(answer.bundles.first { $0.category == .initialInstall || $0.tags.contains("Green") })
        return try #require(manifest.bundles.first { $0.pack == item.pack && $0.device == answer.device })
    }

    func bundleRequests(_ rig: Rig) -> [FaultProxy.Seen] {
        rig.proxy.requests.filter { $0.path.hasPrefix("/bundles/") }
    }

    @Test("connections cut at several offsets resume where they stopped, never from byte 0")
    func resumesAfterCuts() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let bundle = try await greenBundle()
        let client = try rig.client(concurrency: 1)
        try await client.refreshManifest()
        let cuts = [1, bundle.bytes / 3, bundle.bytes / 3 + 7]
        rig.proxy.forget()
        rig.proxy.enqueue(.pass)  // the manifest refresh beginAccessing makes
        for cut in cuts { rig.proxy.enqueue(.cutAfter(cut)) }
        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        let seen = bundleRequests(rig).filter { $0.path.contains(bundle.path.split(separator: "/")[1]) }
        var offset = 0
        var ranges: [String?] = [nil]
        for cut in cuts { offset += cut; ranges.append("bytes=\(offset)-") }
        #expect(seen.map(\.range) == ranges)
        #expect(seen.map(\.status) == [200, 206, 206, 206])
        #expect(seen.dropFirst().allSatisfy { $0.ifRange != nil })
        #expect(await client.installedBundles.contains(bundle.sha256))
    }

    @Test("wrong bytes are rejected and fetched again; wrong every time, an error and nothing installed")
    func corruptBytes() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let bundle = try await greenBundle()
        let client = try rig.client(concurrency: 1)
        try await client.refreshManifest()
        rig.proxy.forget()
        rig.proxy.enqueue(.pass, .corrupt(at: 100))
        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        let seen = bundleRequests(rig).filter { $0.path.contains(bundle.path.split(separator: "/")[1]) }
        #expect(seen.map(\.range) == [nil, nil])
        #expect(await client.installedBundles.contains(bundle.sha256))

        let fresh = try await Rig()
        defer { fresh.stop() }
        let victim = try fresh.client(concurrency: 1)
        try await victim.refreshManifest()
        fresh.proxy.enqueue(.pass, .corrupt(at: 100), .corrupt(at: 5), .corrupt(at: 0))
        let failing = ResourceRequest(tags: ["Green"], client: victim)
        await #expect {
            try await failing.beginAccessing()
        } throws: { error in
            guard let error = error as? TesseraError else { return false }
            return error.kind == .invalidInput && error.reason.contains("SHA-256") && error.reason.contains("3 failed attempts")
                && error.file?.hasSuffix(bundle.path.replacingOccurrences(of: " ", with: "%20")) == true
        }
        #expect(await victim.installedBundles.isEmpty)
        #expect(await failing.conditionallyBeginAccessing() == false)
    }

    @Test("HTTP 500s are retried, then reported with the URL and status")
    func serverErrors() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client(concurrency: 1)
        try await client.refreshManifest()
        rig.proxy.enqueue(.pass, .status(500))
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        #expect(bundleRequests(rig).map(\.status).prefix(2) == [500, 200])

        let fresh = try await Rig()
        defer { fresh.stop() }
        let other = try fresh.client(concurrency: 1)
        try await other.refreshManifest()
        fresh.proxy.enqueue(.pass, .status(500), .status(503), .status(500))
        await #expect {
            try await ResourceRequest(tags: ["Green"], client: other).beginAccessing()
        } throws: { error in
            guard let error = error as? TesseraError else { return false }
            return error.kind == .io && error.reason.contains("HTTP 500") && error.reason.contains("3 failed attempts")
                && error.file?.hasPrefix(fresh.proxy.baseURL.absoluteString) == true
        }
    }

    @Test("a bundle file replaced mid-download fails If-Range, and the download restarts from byte 0")
    func changedFileRestarts() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let bundle = try await greenBundle()
        let client = try rig.client(concurrency: 1)
        try await client.refreshManifest()
        rig.proxy.forget()
        let file = rig.served.appendingPathComponent(bundle.path)
        rig.proxy.enqueue(.pass, .cutAfter(bundle.bytes / 2, then: {
            // A new publish of the same bytes: a new modification time, so a new ETag.
            try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: file.path)
        }))
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        let seen = bundleRequests(rig).filter { $0.path.contains(bundle.path.split(separator: "/")[1]) }
        #expect(seen.map(\.range) == [nil, "bytes=\(bundle.bytes / 2)-"])
        #expect(seen.map(\.status) == [200, 200])
        #expect(await client.installedBundles.contains(bundle.sha256))
    }

    @Test("a build published during an access leaves that access's bundles readable until it ends")
    func newBuildKeepsBegunAccess() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client()
        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        // The next build drops every on-demand bundle.
        var manifest = try await SampleBuild.manifest()
        let onDemand = Set(manifest.packs.filter { $0.category == .onDemand }.map(\.id))
        manifest.bundles.removeAll { onDemand.contains($0.pack) }
        try JSONEncoder().encode(manifest).write(to: rig.served.appendingPathComponent("manifest.json"))
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        _ = try await client.purge(toFit: 0)
        #expect(!(try request.data(for: "Green Star")).isEmpty)
        await request.endAccessing()
        #expect(try await client.purge(toFit: 0).remainingBytes == 0)
    }

    @Test("bundles are asked for as they are (Accept-Encoding: identity); a server that says it compressed one anyway is refused, naming the encoding")
    func compressedBundlesAreRefused() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client(concurrency: 1, attempts: 1)
        try await client.refreshManifest()
        // The access asks for the manifest again (304) before its bundle.
        rig.proxy.enqueue(.pass, .header("Content-Encoding: gzip"))
        await #expect {
            try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        } throws: { error in
            (error as? TesseraError)?.reason.contains("Content-Encoding 'gzip'") == true
        }
        let bundles = rig.proxy.requests.filter { $0.path.hasSuffix(".tsb") }
        #expect(!bundles.isEmpty && bundles.allSatisfy { $0.acceptEncoding == "identity" }, "\(bundles)")
        // Asked again without the lie, the same bundle installs.
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
    }

    /// The disk's free space is the host's, so the test makes its own condition: the client keeps
    /// all but 512 MiB of it free, and the manifest declares 1 GiB bundles (within what a
    /// manifest may declare, whatever the disk).
    @Test("a bundle larger than the store may take from its disk (free space less the reserve) is refused before a byte is fetched, naming both sizes; in a signed manifest too",
          arguments: [false, true])
    func bundleLargerThanTheDisk(signed: Bool) async throws {
        let rig = try await Rig(signed: signed)
        defer { rig.stop() }
        let free = try #require(BundleDownloader.freeBytes(under: rig.store.deletingLastPathComponent().path))
        let declared = 1 << 30
        let reserved = max(0, free - (512 << 20))
        var manifest = try await SampleBuild.manifest()
        let onDemand = Set(manifest.packs.filter { $0.category == .onDemand }.map(\.id))
        for index in manifest.bundles.indices where onDemand.contains(manifest.bundles[index].pack) {
            manifest.bundles[index].bytes = declared
        }
        try JSONEncoder().encode(manifest).write(to: rig.served.appendingPathComponent("manifest.json"))
        try rig.resign()
        let client = try rig.client(attempts: 1, reservedDiskBytes: reserved)
        try await client.refreshManifest()
        let before = rig.proxy.requests.count
        await #expect {
            try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        } throws: { error in
            guard let reason = (error as? TesseraError)?.reason else { return false }
            return reason.contains("the bundle is \(declared) bytes; the store's disk has")
                && (reserved == 0 || reason.contains("of which \(reserved) are kept free for the device"))
        }
        // The oversized bundles were never asked for (the base pack's may have been).
        let oversized = manifest.bundles.filter { $0.bytes == declared }.map { ($0.path as NSString).lastPathComponent }
        #expect(!oversized.isEmpty)
        #expect(!rig.proxy.requests.dropFirst(before).contains { request in oversized.contains { request.path.hasSuffix($0) } })
    }

    @Test("a bundle that fits in the disk's free space less the reserve installs")
    func bundleWithinTheReserveInstalls() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let free = try #require(BundleDownloader.freeBytes(under: rig.store.deletingLastPathComponent().path))
        let client = try rig.client(reservedDiskBytes: max(0, free - (512 << 20)))
        let request = ResourceRequest(tags: ["Green"], client: client)
        try await request.beginAccessing()
        #expect(!(try request.data(for: "Green Star")).isEmpty)
        await request.endAccessing()
    }

    @Test("a server that never answers times out, is retried, then reported; nothing is installed")
    func timeouts() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let client = try rig.client(concurrency: 1, attempts: 2, timeout: 1)
        try await client.refreshManifest()
        rig.proxy.enqueue(.pass, .stall, .stall)
        await #expect {
            try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        } throws: { error in
            guard let error = error as? TesseraError else { return false }
            return error.kind == .io && error.reason.contains("2 failed attempts") && error.file?.contains("/bundles/") == true
        }
        #expect(await client.installedBundles.isEmpty)
    }

    @Test("cancelling the task that began accessing stops the transfer and keeps the partial file")
    func cancellation() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let bundle = try await greenBundle()
        let client = try rig.client(concurrency: 1)
        try await client.refreshManifest()
        rig.proxy.forget()
        // The first attempt delivers part of the file; the resumed one hangs until cancelled.
        rig.proxy.enqueue(.pass, .cutAfter(bundle.bytes / 2), .stall)
        let request = ResourceRequest(tags: ["Green"], client: client)
        let task = Task { try await request.beginAccessing() }
        while !rig.proxy.requests.contains(where: { $0.status == 0 }) { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            (error as? TesseraError)?.kind == .cancelled
        }
        let partial = rig.store.appendingPathComponent("partial/\(bundle.sha256.hex).part")
        #expect((try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) == bundle.bytes / 2)
        #expect(await client.installedBundles.isEmpty)
        #expect(await request.conditionallyBeginAccessing() == false)
        // Begun again, it continues from the kept half.
        try await request.beginAccessing()
        #expect(rig.proxy.requests.last { $0.path.contains(bundle.path.split(separator: "/")[1]) }?.range == "bytes=\(bundle.bytes / 2)-")
    }
}
