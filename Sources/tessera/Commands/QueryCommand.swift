import ArgumentParser
import Foundation
import Manifests
import Slicing
import TesseraCore

/// `tessera query MANIFEST --device ID --tags a,b`: what to download, in order.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the bundles a device needs for some on-demand tags, in download order, with URL, size and SHA-256.")

    @Argument(help: "A manifest.json written by `tessera run` with a pack stage.")
    var manifest: String

    @Option(help: "A device identifier from the manifest's device classes.")
    var device: String?

    @Option(help: "A device spec JSON (Tessera's device-class shape); its id must be in the manifest.")
    var deviceSpec: String?

    @Option(parsing: .upToNextOption, help: "Tags wanted now (comma- or space-separated).")
    var tags: [String] = []

    @Option(parsing: .upToNextOption, help: "Tags already installed (comma- or space-separated).")
    var installed: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (device == nil) != (deviceSpec == nil) else { throw ValidationError("give one of --device or --device-spec") }
    }

    func run() throws {
        let answer: BundleQuery.Answer
        do {
            let model = try ManifestWriter.read(from: manifest)
            let id: String
            if let deviceSpec { id = try DeviceCatalog.device(specAt: deviceSpec).id } else { id = device ?? "" }
            // A device the build made no class for is answered for its nearest built class, and says so.
            var target = id
            if !model.bundles.contains(where: { $0.device == id }),
               let match = DeviceCatalog.nearest(to: id, among: model.deviceClasses), !match.isExact {
                target = match.device.id
                printError("note: \(match.note ?? "using \(target)")")
            }
            answer = try BundleQuery.answer(model, device: target, tags: split(tags), installed: split(installed))
        } catch {
            throw fail(error)
        }
        if json {
            try printJSON(answer)
            return
        }
        for item in answer.bundles {
            print("\(item.category) \(item.pack) [\(item.tags.joined(separator: ","))] \(item.url) \(item.bytes) \(item.sha256.hex)")
        }
        print("total \(answer.totalBytes) bytes in \(answer.bundles.count) bundles")
    }

    /// `--tags a,b`, `--tags a b` and `--tags "a b"` all mean the tags a and b.
    private func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split { $0 == "," || $0.isWhitespace } }.map(String.init)
    }
}
