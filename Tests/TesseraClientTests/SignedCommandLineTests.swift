import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TesseraCore
import TesseraClient
import TestServers

/// The whole signed path from the command line: keys made with `tessera keys`, a build signed
/// with `tessera sign` (static) or `tessera publish --sign` (serve), checked by `tessera query
/// --trusted-root`, `client-demo --trusted-root` and TesseraClient.
@Suite("Signed manifests from the command line: tessera keys, sign, publish --sign, query --trusted-root", .serialized)
struct SignedCommandLineTests {
    /// Runs `tessera ARGS`, every `keys/…` argument made absolute under `work` (the test
    /// process's working folder is shared with other suites, so it is never changed).
    func tessera(_ arguments: [String], in work: URL) async throws -> TesseraProcess.Result {
        try await TesseraProcess.run(arguments.map { $0.hasPrefix("keys/") ? work.appendingPathComponent($0).path : $0 })
    }

    /// root and ci keys, root.json, and chain.json delegating to ci, made by the CLI in `work/keys`.
    func makeKeys(in work: URL) async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("keys"), withIntermediateDirectories: true)
        for step in [["keys", "generate", "keys/root"], ["keys", "generate", "keys/ci"],
                     ["keys", "root-init", "--root-key", "keys/root.key", "--root", "keys/root.json", "--chain", "keys/chain.json"],
                     ["keys", "delegate", "--chain", "keys/chain.json", "--root-key", "keys/root.key", "--signing-key", "keys/ci.pub",
                      "--expires", "1d"]] {
            let result = try await tessera(step, in: work)
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
    }

    @Test("keys generate, root-init, delegate, then sign: the sidecar beside manifest.json; query --trusted-root answers it, refuses it tampered or for another channel, and answers unsigned builds only without the root")
    func staticSigning() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-signed-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let keys = work.appendingPathComponent("keys")
        try await makeKeys(in: work)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent("ci.key").path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let build = work.appendingPathComponent("build")
        try FileManager.default.copyItem(at: try await SampleBuild.folder.value, to: build)
        let query = ["query", build.path, "--device", "iPhone15,2", "--tags", "Green", "--trusted-root", keys.appendingPathComponent("root.json").path]
        let unsigned = try await tessera(query, in: work)
        #expect(unsigned.status == 1 && unsigned.stderr.contains("unsigned: no \(build.path)/manifest.json.sig"), "\(unsigned.stderr)")

        let signed = try await tessera(["sign", build.path, "--key", "keys/ci.key", "--signing-chain", "keys/chain.json",
                                  "--channel", "production", "--signed-version", "3", "--expires", "1h"], in: work)
        #expect(signed.status == 0 && signed.stdout.contains("manifest.json.sig: channel production, version 3"), "\(signed.stderr)")
        let answered = try await tessera(query, in: work)
        #expect(answered.status == 0 && answered.stdout.contains("total "), "\(answered.stderr)")
        let otherChannel = try await tessera(query + ["--signed-channel", "staging"], in: work)
        #expect(otherChannel.status == 1 && otherChannel.stderr.contains("signed for channel 'production', not 'staging'"), "\(otherChannel.stderr)")

        let manifest = build.appendingPathComponent("manifest.json")
        try (try Data(contentsOf: manifest) + Data(" ".utf8)).write(to: manifest)
        let tampered = try await tessera(query, in: work)
        #expect(tampered.status == 1 && tampered.stderr.contains("tampered"), "\(tampered.stderr)")
        let plain = try await tessera(Array(query.dropLast(2)), in: work)
        #expect(plain.status == 0, "\(plain.stderr)")

        // A key the chain does not delegate cannot sign: refused before anything is written.
        let stranger = try await tessera(["keys", "generate", "keys/stranger"], in: work)
        #expect(stranger.status == 0)
        let refused = try await tessera(["sign", build.path, "--key", "keys/stranger.key", "--signing-chain", "keys/chain.json",
                                   "--channel", "production", "--signed-version", "4"], in: work)
        #expect(refused.status == 2 && refused.stderr.contains("not among signing keys v1"), "\(refused.stderr)")
    }

    @Test("publish --sign uploads the signature, tessera serve answers it at the channel manifest's URL + .sig, and the client and client-demo with the pinned root load the channel; an unsigned channel is refused")
    func servedSigning() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-signed-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let keys = work.appendingPathComponent("keys")
        try await makeKeys(in: work)
        let server = try ServeProcess(folder: work.appendingPathComponent("serve").path)
        defer { server.stop() }
        let build = try await SampleBuild.folder.value
        let published = try await tessera(["publish", build.path, "--server", server.url, "--token-file", server.tokenFile,
                                     "--channel", "production", "--sign", "keys/ci.key", "--signing-chain", "keys/chain.json",
                                     "--signed-version", "7", "--expires", "1h"], in: work)
        #expect(published.status == 0 && published.stdout.contains("signed for production: version 7"), "\(published.stderr)")
        let unsignedChannel = try await tessera(["publish", build.path, "--server", server.url, "--token-file", server.tokenFile,
                                           "--channel", "nightly"], in: work)
        #expect(unsignedChannel.status == 0, "\(unsignedChannel.stderr)")

        let (body, response) = try await URLSession.shared.data(from: URL(string: "\(server.url)/v1/channels/production/manifest.sig")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let sidecar = try StableJSON.decode(ManifestSidecar.self, from: Array(body), source: "manifest.sig")
        #expect(try ManifestStatement.open(sidecar.manifest, source: "manifest.sig").version == 7)

        let root = try TrustedRoot(contentsOf: keys.appendingPathComponent("root.json"))
        let client = try TesseraClient(configuration: .channel("production", on: URL(string: server.url)!,
                                                               storeFolder: work.appendingPathComponent("store"), device: "iPhone15,2",
                                                               trustedRoot: root))
        try await ResourceRequest(tags: ["Green"], client: client).beginAccessing()
        #expect(!(await client.installedBundles).isEmpty)
        // The client asked for the signature of the build it got (Tessera-Signature-Location), not the channel's.
        let buildID = try await SampleBuild.manifestHash()
        var log = ""
        for _ in 0..<100 where !log.contains("/v1/builds/\(buildID)/signatures/production") {
            try await Task.sleep(for: .milliseconds(20))
            log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        }
        #expect(log.contains("GET /v1/builds/\(buildID)/signatures/production"), "\(log.suffix(2000))")

        let nightly = try TesseraClient(configuration: .channel("nightly", on: URL(string: server.url)!,
                                                                storeFolder: work.appendingPathComponent("store-nightly"),
                                                                device: "iPhone15,2", trustedRoot: root))
        let error = await #expect(throws: TesseraError.self) { try await nightly.refreshManifest() }
        #expect(error?.kind == .untrusted && error?.reason.contains("unsigned: no signature at") == true
                && error?.file == "\(server.url)/v1/channels/nightly/manifest", "\(String(describing: error))")

        let demo = try await runClientDemo(["--server", server.url, "--channel", "production", "--device", "iPhone15,2", "--tags", "Green",
                                      "--store", work.appendingPathComponent("store-demo").path,
                                      "--trusted-root", keys.appendingPathComponent("root.json").path])
        #expect(demo.status == 0 && demo.output.contains("Green Star\t"), "\(demo.output)")
        let refused = try await runClientDemo(["--server", server.url, "--channel", "nightly", "--device", "iPhone15,2", "--tags", "Green",
                                         "--store", work.appendingPathComponent("store-demo-2").path,
                                         "--trusted-root", keys.appendingPathComponent("root.json").path])
        #expect(refused.status == 1 && refused.output.contains("unsigned"), "\(refused.output)")
        let query = try await tessera(["query", "\(server.url)/v1/channels/production", "--device", "iPhone15,2", "--tags", "Green",
                                 "--trusted-root", "keys/root.json"], in: work)
        #expect(query.status == 0, "\(query.stderr)")
    }
}
