import Foundation
import TesseraClient

/// `client-demo --server URL [--channel NAME] --device ID --tags a,b [--store FOLDER]`: begins
/// accessing the tags (downloading what is missing into the store), prints each asset file it can
/// now read, ends. With `--channel`, the server is a `tessera serve` and the build is that
/// channel's; without it, any static server of a build folder.
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
            fail("usage: client-demo --server URL [--channel NAME] --device ID --tags a,b [--store FOLDER]")
        }
        let store = URL(fileURLWithPath: options["store"] ?? NSTemporaryDirectory() + "tessera-client-demo")
        do {
            let configuration = options["channel"].map { ClientConfiguration.channel($0, on: server, storeFolder: store, device: device) }
                ?? ClientConfiguration(server: server, storeFolder: store, device: device)
            let client = try TesseraClient(configuration: configuration)
            let request = ResourceRequest(tags: Set(tags.split(separator: ",").map(String.init)), client: client)
            let watcher = Task {
                for await step in request.progress { print(String(format: "progress %.0f%% (%d of %d bytes)", step.fraction * 100, step.completedBytes, step.totalBytes)) }
            }
            try await request.beginAccessing()
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

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("client-demo: \(message)\n".utf8))
        exit(1)
    }
}
