import ArgumentParser
import Pipeline
import Delivery
import Foundation
import Manifests
import Slicing
import TesseraCore

/// `tessera query MANIFEST --device ID --tags a,b`: what to download, in order.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the bundles a device needs for some on-demand tags, in download order, with URL, size and SHA-256.")

    @Argument(help: "A build: its output folder, its manifest.json, or a URL of either (a `tessera serve` channel's too), as `tessera report` takes it.")
    var manifest: String

    @Option(help: "A device identifier from the manifest's device classes.")
    var device: String?

    @Option(help: "A device spec JSON (Tessera's device-class shape); its id must be in the manifest.")
    var deviceSpec: String?

    @Option(parsing: .upToNextOption, help: "Tags wanted now (comma- or space-separated).")
    var tags: [String] = []

    @Option(parsing: .upToNextOption, help: "Tags already installed (comma- or space-separated).")
    var installed: [String] = []

    @Option(help: "A pinned root file (tessera keys root-init): the manifest must come with a valid signature (manifest.json.sig, or the URL + .sig) or it is refused (docs/security.md).")
    var trustedRoot: String?

    @Option(help: "With --trusted-root: the channel the manifest must be signed for (default: a serve channel URL's name, else production).")
    var signedChannel: String?

    @OptionGroup var result: ResultOutput

    func validate() throws {
        guard (device == nil) != (deviceSpec == nil) else { throw ValidationError("give one of --device or --device-spec") }
    }

    func run() throws {
        let answer: BundleQuery.Answer
        do {
            let model: Manifest
            if let trustedRoot {
                model = try SignedManifestLoader.load(manifest, trustedRoot: trustedRoot, channel: signedChannel)
            } else {
                model = try ReportedBuildLoader.load(manifest).manifest
            }
            let id: String
            if let deviceSpec { id = try KnownDevices.device(specAt: deviceSpec).id } else { id = device ?? "" }
            answer = try DeviceQuery.answer(model, device: id, tags: DeviceQuery.tagList(tags), installed: DeviceQuery.tagList(installed))
            if let note = answer.note { printError("note: \(note)") }
        } catch {
            throw fail(error)
        }
        try result.emit(answer) {
            answer.bundles.map {
                "\($0.category.rawValue) \($0.pack) [\($0.tags.joined(separator: ","))] \($0.url) \($0.bytes) \($0.sha256.hex)\n"
            }.joined() + "total \(answer.totalBytes) bytes in \(answer.bundles.count) bundles\n"
        }
    }
}
