import ArgumentParser
import Delivery
import Foundation
import Pipeline
import Slicing
import TesseraCore

/// `tessera slice INPUT --device ID`: what one device gets from a catalog or folder, and why.
struct SliceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slice",
        abstract: "Show which variant of every asset a device gets (app thinning), and why.",
        discussion: """
        INPUT is an .xcassets catalog or a folder (Xcode-style @2x~ipad names, Android drawable-<density> \
        folders, catalogs inside). The rule is in docs/variant-selection.md. Exits 1 when the input has \
        errors (the report still lists every valid asset).
        """)

    @Argument(help: "An .xcassets catalog or a folder of images.")
    var input: String

    @Option(help: "A device: an identifier such as iPhone15,2 or android-xxhdpi (any case), or a name such as \"iPhone 15 Pro\" (see docs/devices.md); a model Tessera does not list is shown as the nearest known class.")
    var device: String?

    @Option(help: "A device spec JSON file: Tessera's device-class shape or bundletool's Android spec.")
    var deviceSpec: String?

    @OptionGroup var result: ResultOutput

    @Flag(help: "Show PDF and SVG sets copied as they are, as a pipeline without a rasterize stage ships them (by default they are drawn at the device's scale, as Xcode and the shipped pipelines do).")
    var noRasterize = false

    func validate() throws {
        guard (device == nil) != (deviceSpec == nil) else { throw ValidationError("give one of --device or --device-spec") }
    }

    func run() throws {
        let report: SliceReport
        do throws(TesseraError) {
            let target: DeviceClass
            if let deviceSpec { target = try KnownDevices.device(specAt: deviceSpec) } else {
                // A shipping model Tessera has no entry for (`iPhone16,2`) is shown as the nearest
                // known class, by the rule `tessera query` and the server use, and said so.
                do {
                    target = try KnownDevices.device(device ?? "")
                } catch {
                    guard let match = KnownDevices.nearest(to: device ?? "") else { throw error }
                    target = match.device
                    if let note = match.note { printError("note: \(note)") }
                }
            }
            report = try SliceReport.make(input: input, device: target, rasterizes: !noRasterize)
        } catch {
            throw fail(error)
        }
        if !result.json { for problem in report.problems { printError(problem) } }
        try result.emit(report) {
            var lines = ["\(report.device.name) (\(report.device.id)): \(report.device.idiom) \(report.device.scale)x, \(report.device.memoryGB)GB, \(report.device.graphicsFamily ?? "-"), \(report.device.displayGamut.rawValue)"]
            for row in report.assets {
                let size = row.width.map { "\($0)×\(row.height ?? 0)" } ?? "?"
                let appearance = row.appearance == .any ? "" : " [\(row.appearance.rawValue)]"
                let tags = row.tags.isEmpty ? "" : " tags: \(row.tags.joined(separator: ","))"
                lines.append("  \(row.asset)\(appearance): \(row.action) \(row.source ?? "") \(size)\(tags) — \(row.reason)")
            }
            return lines.map { $0 + "\n" }.joined()
        }
        if report.hasErrors { throw ExitCode(1) }
    }
}
