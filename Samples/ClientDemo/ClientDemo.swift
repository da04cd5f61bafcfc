import Foundation
import TesseraClient

/// `client-demo --server URL [--channel NAME] --device ID --tags a,b [--store FOLDER]
/// [--trusted-root FILE [--signed-channel NAME]]`: begins accessing the tags (downloading what is
/// missing into the store), prints each asset file it can now read, ends. With `--channel`, the
/// server is a `tessera serve` and the build is that channel's; without it, any static server of
/// a build folder. With `--trusted-root`, manifests must be signed (docs/security.md), for the
/// `--channel` (or `--signed-channel`, default production). Prints how long beginning the access
/// took (the manifest's refresh, an update of the installed bundles, downloads: Benchmarks/updates.sh).
@main
struct ClientDemo {
    static func main() async {
        var options: [String: String] = [:]
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let name = arguments.next() {
            guard name.hasPrefix("--"), let value = arguments.next() else { fail("expected --name value, got '\(name)'") }
            options[String(name.dropFirst(2))] = value
        }
        guard let server = options["server"].flatMap(URL.init(string:)), let device = options["device"],
              let tags = options["tags"] else {
            fail("usage: client-demo --server URL [--channel NAME] --device ID --tags a,b [--store FOLDER] [--trusted-root FILE [--signed-channel NAME]]")
        }
        let store = URL(fileURLWithPath: options["store"] ?? NSTemporaryDirectory() + "tessera-client-demo")
        do {
            let root = try options["trusted-root"].map { (path: String) throws(TesseraError) in try TrustedRoot(contentsOf: URL(fileURLWithPath: path)) }
            let configuration = options["channel"].map { ClientConfiguration.channel($0, on: server, storeFolder: store, device: device, trustedRoot: root) }
                ?? ClientConfiguration(server: server, storeFolder: store, device: device, trustedRoot: root,
                                       channel: options["signed-channel"] ?? "production")
            if let count = options["refreshes"].flatMap(Int.init) {
                try await measureRefreshes(count, configuration: configuration)
                return
            }
            let client = try TesseraClient(configuration: configuration)
            let request = ResourceRequest(tags: Set(tags.split(separator: ",").map(String.init)), client: client)
            let watcher = Task {
                for await step in request.progress { print(String(format: "progress %.0f%% (%d of %d bytes)", step.fraction * 100, step.completedBytes, step.totalBytes)) }
            }
            let began = ContinuousClock.now
            try await request.beginAccessing()
            let took = began.duration(to: .now).components
            print(String(format: "access: %.3f s", Double(took.seconds) + Double(took.attoseconds) / 1e18))
            print("manifest: \(await client.lastRefresh.map { "\($0)" } ?? "none")")
            let manifest = try await client.currentManifest()
            for asset in manifest.assets where !request.tags.isDisjoint(with: asset.tags) {
                let url = try request.url(for: asset.name.name)
                print("\(asset.name.name)\t\(url.path)")
            }
            await request.endAccessing()
            watcher.cancel()
            print("store: \(store.path), \(await client.installedBytes) bytes installed")
        } catch {
            fail("\(error)")
        }
    }

    /// `--refreshes N` (Benchmarks/signing.sh): N manifest refreshes, each into a fresh store (a
    /// full fetch, decode and, with `--trusted-root`, signature check), and the process CPU time
    /// (user + system) per refresh.
    static func measureRefreshes(_ count: Int, configuration: ClientConfiguration) async throws {
        var configuration = configuration
        let base = configuration.storeFolder
        let before = cpuSeconds()
        for index in 0..<count {
            configuration.storeFolder = base.appendingPathComponent("refresh-\(index)")
            try await TesseraClient(configuration: configuration).refreshManifest()
        }
        let perRefresh = (cpuSeconds() - before) / Double(max(count, 1))
        print(String(format: "refreshes %d cpu_ms_per_refresh %.3f", count, perRefresh * 1000))
        try? FileManager.default.removeItem(at: base)
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("client-demo: \(message)\n".utf8))
        exit(1)
    }
}
