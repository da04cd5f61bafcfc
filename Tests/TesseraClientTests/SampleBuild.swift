import Delivery
import Foundation
import Pipeline
import TesseraCore
import TesseraClient
import TestServers

/// The on-demand part of `Samples/` (ODR.xcassets: tagged image sets) built once per test run
/// with Pipelines/samples.yml, as the folder a static host serves.
enum SampleBuild {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let folder: Task<URL, any Error> = Task {
        // One fixed folder, rebuilt each run, so runs leave nothing behind in /tmp.
        let work = packageRoot.appendingPathComponent(".build/client-test-samples")
        try? FileManager.default.removeItem(at: work)
        let input = work.appendingPathComponent("input"), output = work.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Samples/ODR.xcassets"),
                                         to: input.appendingPathComponent("ODR.xcassets"))
        let definition = try PipelineFileReader.read(path: packageRoot.appendingPathComponent("Pipelines/samples.yml").path)
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input.path,
                                                                outputFolder: output.path))
        guard outcome.exitStatus == 0 else { throw ProxyError("the sample build failed") }
        return output
    }

    static func manifest() async throws -> Manifest {
        try Manifest.decode(try Data(contentsOf: try await folder.value.appendingPathComponent("manifest.json")), source: "manifest.json")
    }

    /// The SHA-256 hex of the build's manifest bytes: its build ID on `tessera serve`.
    static func manifestHash() async throws -> String {
        ContentHash.of(try Data(contentsOf: try await folder.value.appendingPathComponent("manifest.json"))).hex
    }

    /// A copy of the build a test may change (a new build published, a file touched).
    static func copy() async throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-served-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: try await folder.value, to: copy)
        return copy
    }
}

/// nginx serving a copy of the sample build, a fault proxy in front, and a fresh store.
/// Signed (`signed: true`): the served manifest is signed and clients pin the root.
final class Rig: @unchecked Sendable {
    let served: URL
    let nginx: NginxServer
    let proxy: FaultProxy
    let store: URL
    let trust: ClientTrust?
    private var signedVersion = 0

    init(signed: Bool = false) async throws {
        served = try await SampleBuild.copy()
        // Served as an old host would (no update index): these tests edit manifest.json in place,
        // which an index written by the build would not follow. `UpdateTests` serve the index.
        for name in [UpdateIndex.fileName, UpdateIndex.compressedManifestName] {
            try? FileManager.default.removeItem(at: served.appendingPathComponent(name))
        }
        nginx = try NginxServer(serving: served)
        proxy = try FaultProxy(upstream: nginx.port)
        store = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-store-\(UUID().uuidString)")
        trust = signed ? try ClientTrust() : nil
        try resign()
    }

    /// Signs the served manifest as it is now, at the next version (nothing when unsigned): a
    /// test that edits the manifest calls it, so a signed run checks what follows the signature.
    func resign() throws {
        signedVersion += 1
        try trust?.sign(served, version: signedVersion)
    }

    func client(device: String = "iPhone15,2", concurrency: Int = 4, attempts: Int = 3,
                timeout: TimeInterval = 10, reservedDiskBytes: Int = 0, responseDeadline: TimeInterval = 120,
                minimumBytesPerSecond: Int = 16 << 10, usesUpdateIndex: Bool = false) throws -> TesseraClient {
        // The update index is off by default here: these tests edit manifest.json in place, as
        // an old host would serve it; `UpdateTests` play the index's ways.
        try TesseraClient(configuration: ClientConfiguration(server: proxy.baseURL, storeFolder: store, device: device,
                                                             maxConcurrentDownloads: concurrency, attemptsPerBundle: attempts,
                                                             requestTimeout: timeout, trustedRoot: trust?.pinned,
                                                             reservedDiskBytes: reservedDiskBytes, responseDeadline: responseDeadline,
                                                             minimumBytesPerSecond: minimumBytesPerSecond, usesUpdateIndex: usesUpdateIndex))
    }

    func stop() {
        trust?.stop()
        proxy.stop()
        nginx.stop()
        try? FileManager.default.removeItem(at: served)
        try? FileManager.default.removeItem(at: store)
    }
}
