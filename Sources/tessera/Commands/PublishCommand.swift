import ArgumentParser
import Foundation
import Delivery
import Packing
import PublishedBuilds
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
            throw TesseraError(.configuration, file: server, origin: .client, reason: "not an http(s) URL")
        }
        let token = try tokenFile.map { path throws(TesseraError) in try ClientToken.read(path) }
            ?? ProcessInfo.processInfo.environment["TESSERA_TOKEN"]
        return BuildServerClient(server: url, token: token)
    }
}

/// `tessera publish BUILD_DIR --server URL [--channel NAME] [--sign KEY --signed-version N --expires D]`.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a build (its manifest.json and bundles) to a catalog server; optionally point a channel at it.")

    @Argument(help: "A build folder written by `tessera run` with a pack stage.")
    var build: String

    @OptionGroup var options: ServerOptions

    @Option(help: "Point this channel at the build once it is complete (compare-and-swap from its current build).")
    var channel: String?

    @Option(help: "Sign the manifest for --channel with this private key file before the channel moves (docs/security.md); the key stays here, only the signature is uploaded.")
    var sign: String?

    @OptionGroup var signing: SigningOptions

    func validate() throws {
        if sign != nil && channel == nil { throw ValidationError("--sign needs --channel: a signature is for one channel") }
        if sign != nil && signing.signedVersion == nil { throw ValidationError("--sign needs --signed-version N") }
    }

    func run() async throws {
        do {
            let client = try options.client()
            // Signed before anything is uploaded, so a key that would be refused fails first.
            let sidecar = try sign.map { (key: String) throws(TesseraError) -> [UInt8] in
                try signing.signer(key: key).sidecar(forBuild: build, channel: channel!, version: try signing.version(),
                                                     expires: try signing.expiry())
            }
            let publication = try await client.publish(buildFolder: build)
            print("published \(publication.build): \(publication.uploaded) blobs uploaded, \(publication.alreadyPresent) already present, \(publication.objectsUploaded) objects uploaded")
            if let sidecar, let channel {
                try await client.putSignature(sidecar, build: publication.build, channel: channel)
                print("signed for \(channel): version \(signing.signedVersion ?? 0)")
            }
            // Before the channel moves, so its devices find the update files with the manifest.
            var current: ChannelState?
            if let channel { current = try await client.channel(channel) }
            let updates = try await client.publishUpdateFiles(build: publication.build, folder: build, channel: current,
                                                              maker: UpdateFileMaker(compress: { (bytes: [UInt8]) throws(TesseraError) in try XZ.compress(bytes, level: XZ.manifestLevel) },
                                                                                     patch: { (from: [UInt8], to: [UInt8]) throws(TesseraError) in try ManifestDiffer.patch(from: from, to: to) }))
            if updates.supported {
                print("update files: manifest.json.xz, patches from \(updates.patchesFrom.count) earlier builds")
            } else {
                print("update files: the server keeps none (it predates them); devices fetch whole manifests")
            }
            if let channel {
                let state = try await client.move(channel, to: publication.build, expected: current?.build)
                print("\(state.name) -> \(state.build)")
            }
        } catch {
            throw fail(error)
        }
    }
}
