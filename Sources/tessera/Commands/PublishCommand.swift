import ArgumentParser
import Foundation
import Serving
import TesseraCore

/// Options every catalog client command takes.
struct ServerOptions: ParsableArguments {
    @Option(help: "The catalog server, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "A file holding the bearer token (or set TESSERA_TOKEN).")
    var tokenFile: String?

    func client() throws(TesseraError) -> BuildServerClient {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
            throw TesseraError(.configuration, file: server, stage: .client, reason: "not an http(s) URL")
        }
        let token = try tokenFile.map { path throws(TesseraError) in try ClientToken.read(path) }
            ?? ProcessInfo.processInfo.environment["TESSERA_TOKEN"]
        return BuildServerClient(server: url, token: token)
    }
}

/// `tessera publish BUILD_DIR --server URL [--channel NAME]`.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a build (its manifest.json and bundles) to a catalog server; optionally point a channel at it.")

    @Argument(help: "A build folder written by `tessera run` with a pack stage.")
    var build: String

    @OptionGroup var options: ServerOptions

    @Option(help: "Point this channel at the build once it is complete (compare-and-swap from its current build).")
    var channel: String?

    func run() async throws {
        do {
            let client = try options.client()
            let publication = try await client.publish(buildFolder: build)
            print("published \(publication.build): \(publication.uploaded) blobs uploaded, \(publication.alreadyPresent) already present")
            if let channel {
                let current = try await client.channel(channel)
                let state = try await client.move(channel, to: publication.build, expected: current?.build)
                print("\(state.name) -> \(state.build)")
            }
        } catch {
            throw fail(error)
        }
    }
}
