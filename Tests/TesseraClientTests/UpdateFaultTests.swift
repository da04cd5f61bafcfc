import Delivery
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import TesseraClient
import TesseraCore
import Testing
import TestServers

/// The update path under the faults of G5 (issue 55): files larger than the index says, transfers
/// cut short, and the process killed at points all through an update. Whatever happens, the store
/// holds one generation whole, v1 or v2, and a finished update equals a fresh install of v2.
@Suite("Updates by delta under faults", .serialized)
struct UpdateFaultTests {
    typealias Rig = UpdateTests.UpdateRig

    private static func appendBytes(_ file: URL, _ count: Int) throws {
        var bytes = try Data(contentsOf: file)
        bytes += Data(repeating: 0x41, count: count)
        try bytes.write(to: file)
    }

    @Test("a patch and objects longer than the index and manifest say are cut off at their sizes and refused; the device falls back to manifest.json.xz and whole bundles and ends as a fresh install of v2")
    func oversizedFilesFallBack() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let client = try rig.client()
        try await rig.installEverything(client)

        try UpdateBuilds.publish(builds.v2, to: rig.served)
        for name in try FileManager.default.contentsOfDirectory(atPath: rig.served.appendingPathComponent("patches").path) {
            try Self.appendBytes(rig.served.appendingPathComponent("patches/\(name)"), 1 << 20)
        }
        for object in try await UpdateTests.changedObjects() {
            try Self.appendBytes(rig.served.appendingPathComponent(object.path), 1 << 20)
        }
        rig.proxy.forget()
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        let paths = rig.proxy.requests.map(\.path)
        #expect(paths.contains("/manifest.json.xz") && paths.contains { $0.hasSuffix(".tsb") }, "\(paths)")
        // (What the proxy pushed is no measure of what the client read: loopback socket buffers
        // take a megabyte the client never reads. The bound is `BoundedBody`'s, tested on its own.)

        let fresh = Rig.newStore()
        defer { try? FileManager.default.removeItem(at: fresh) }
        try UpdateBuilds.publish(builds.v2, to: rig.served)
        try await rig.installEverything(try rig.client(store: fresh))
        #expect(try UpdateTests.contents(of: rig.store) == (try UpdateTests.contents(of: fresh)))
    }

    @Test("an object transfer cut short is resumed where it stopped (Range with If-Range), and the update completes as a fresh install of v2")
    func cutObjectResumes() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let client = try rig.client(attempts: 3)
        try await rig.installEverything(client)

        try UpdateBuilds.publish(builds.v2, to: rig.served)
        rig.proxy.forget()
        // The index, the patch, then the first object cut after 1,000 bytes.
        rig.proxy.enqueue(.pass, .pass, .cutAfter(1000))
        try await client.refreshManifest()
        #expect(await client.lastRefresh == .updated)
        let requests = rig.proxy.requests
        let objects = requests.filter { $0.path.hasPrefix("/objects/") }
        #expect(objects.count >= 2, "\(requests)")
        #expect(!requests.contains { $0.path.hasSuffix(".tsb") }, "\(requests)")
        #expect(objects.dropFirst().contains { $0.path == objects[0].path && $0.range == "bytes=1000-" && $0.ifRange != nil }, "\(objects)")

        let fresh = Rig.newStore()
        defer { try? FileManager.default.removeItem(at: fresh) }
        try await rig.installEverything(try rig.client(store: fresh))
        #expect(try UpdateTests.contents(of: rig.store) == (try UpdateTests.contents(of: fresh)))
    }

    /// The process to kill once the proxy cuts its connection.
    private final class Victim: @unchecked Sendable {
        private let lock = NSLock()
        private var pid: pid_t = 0
        func set(_ value: pid_t) { lock.withLock { pid = value } }
        func kill() { lock.withLock { if pid > 0 { _ = Glibc.kill(pid, SIGKILL) } } }
    }

    @Test("client-demo killed (SIGKILL) at points all through an update, one run per point: the store's manifest is v1 or v2 with every file of that generation a fresh install's, and the next run completes it as a fresh install of v2",
          .timeLimit(.minutes(10)))
    func killedAnywhereLeavesOneGeneration() async throws {
        let rig = try await Rig()
        defer { rig.stop() }
        let builds = try await UpdateBuilds.folders.value
        let tags = try Manifest.decode(Data(contentsOf: builds.v1.appendingPathComponent("manifest.json")), source: "v1")
            .packs.flatMap(\.tags)
        func demo(_ store: URL) -> [String] {
            ["--server", rig.proxy.baseURL.absoluteString, "--device", UpdateTests.device,
             "--tags", Set(tags).sorted().joined(separator: ","), "--store", store.path]
        }
        // Each generation as a fresh install has it.
        let v1Store = Rig.newStore(), v2Store = Rig.newStore()
        defer { for store in [v1Store, v2Store] { try? FileManager.default.removeItem(at: store) } }
        let first = try await runClientDemo(demo(v1Store))
        #expect(first.status == 0, "\(first.output)")
        let v1 = try UpdateTests.contents(of: v1Store)
        try UpdateBuilds.publish(builds.v2, to: rig.served)
        let fresh = try await runClientDemo(demo(v2Store))
        #expect(fresh.status == 0, "\(fresh.output)")
        let v2 = try UpdateTests.contents(of: v2Store)
        #expect(v1 != v2)

        // The update's requests, and how long each body is (on disk in the served folder).
        let dryStore = Rig.newStore()
        defer { try? FileManager.default.removeItem(at: dryStore) }
        try FileManager.default.copyItem(at: v1Store, to: dryStore)
        rig.proxy.forget()
        let dry = try await runClientDemo(demo(dryStore))
        let dried = try UpdateTests.contents(of: dryStore)
        #expect(dry.status == 0 && dried == v2, "\(dry.output)")
        let requests = rig.proxy.requests.map(\.path)
        #expect(requests.count >= 3, "\(requests)")
        var points: [(request: Int, offset: Int, delay: Int)] = []
        for (index, path) in requests.enumerated() {
            let size = ((try? FileManager.default.attributesOfItem(atPath: rig.served.path + path)[.size]) as? Int) ?? 0
            for offset in Set([0, 1, size / 8, size / 4, size / 2, 3 * size / 4, max(0, size - 1)]).sorted() { points.append((index, offset, 0)) }
            // The whole last answer delivered, then killed a little later: while the bundle is
            // assembled, renamed into place and the manifest committed.
            if index == requests.count - 1 {
                for delay in [0, 2, 5, 10, 20, 50, 100] { points.append((index, size, delay)) }
            }
        }

        var seen: Set<String> = []
        var leftovers = 0
        for point in points {
            let store = Rig.newStore()
            defer { try? FileManager.default.removeItem(at: store) }
            try FileManager.default.copyItem(at: v1Store, to: store)
            let victim = Victim()
            rig.proxy.forget()
            let delay = point.delay
            rig.proxy.enqueue(contentsOf: Array(repeating: .pass, count: point.request)
                              + [.cutAfter(point.offset, then: { if delay > 0 { usleep(UInt32(delay * 1000)) }; victim.kill() })])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ServeProcess.executable).deletingLastPathComponent().appendingPathComponent("client-demo")
            process.arguments = demo(store)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            victim.set(process.processIdentifier)
            _ = try await OwnThread.run { process.waitUntilExit(); return process.terminationStatus }
            // The generation the store's manifest names is there whole, each of its files a fresh
            // install's; a kill between placing the new bundles and committing the manifest (or
            // between that and removing the old ones) may leave the other generation's folders
            // beside it, which nothing reads and the next run removes (checked below).
            let after = try UpdateTests.contents(of: store)
            let generation = after["manifest.json"] == v1["manifest.json"] ? v1 : after["manifest.json"] == v2["manifest.json"] ? v2 : nil
            let whole = generation.map { $0.allSatisfy { after[$0.key] == $0.value } } ?? false
            #expect(whole, "killed in request \(point.request) (\(requests[point.request])) at byte \(point.offset) + \(point.delay) ms: a mix")
            seen.insert(generation == v1 ? "v1" : "v2")
            if let generation, after.count > generation.count { leftovers += 1 }
            rig.proxy.forget()
            let resumed = try await runClientDemo(demo(store))
            let completed = try UpdateTests.contents(of: store)
            #expect(resumed.status == 0 && completed == v2,
                    "after a kill in request \(point.request) at byte \(point.offset): \(resumed.output)")
        }
        print("G5 kill points: \(points.count) over \(requests.count) requests (\(requests.joined(separator: " "))); left \(seen.sorted()), \(leftovers) with the other generation's folders beside it")
        #expect(points.count >= 25)
    }
}
