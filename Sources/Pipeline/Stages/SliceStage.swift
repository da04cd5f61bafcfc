import Delivery
import Foundation
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the job that writes, for every device class the pipeline names, `slices/<device>.json`:
/// which built variant file of each asset that device downloads, and why (`docs/variant-selection.md`).
struct SliceStage: Stage {
    typealias Output = WrittenSlices
    static let name = StageName.slice
    static let version = 2
    let outputFolder: String
    let selections: [DeviceSelection]

    struct File: Codable, Sendable {
        var device: DeviceClass
        var assets: [SliceRow]
    }

    func job(manifest: JobRef<BuiltManifest>) -> Job<WrittenSlices> {
        let key = Self.key(options: ["devices": selections.map(\.device.id).joined(separator: ",")],
                         inputs: [manifest.key.hash])
        let selections = self.selections, outputFolder = self.outputFolder
        return job(key: key, subject: "\(outputFolder)/slices", dependencies: [manifest.key],
                   priority: StagePriority.manifest, toleratesFailedDependencies: true) { context in
            let built = context.result(of: manifest)?.manifest
            var variants: [String: VariantEntry] = [:]
            for asset in built?.assets ?? [] {
                for variant in asset.variants { variants[variant.path] = variant }
            }
            for selection in selections {
                try context.checkCancellation()
                let rows = selection.rows.map { row in Self.measured(row, built: row.path.flatMap { variants[$0] }) }
                try AtomicFile.write(try StableJSON.encode(File(device: selection.device, assets: rows)),
                                     to: "\(outputFolder)/slices/\(selection.device.id).json")
            }
            return WrittenSlices(devices: selections.map(\.device.id))
        }
        .cached(under: outputFolder)
    }

    /// The planned row with the built file's measurements; a variant that failed has no path.
    static func measured(_ row: SliceRow, built: VariantEntry?) -> SliceRow {
        var row = row
        guard let built else {
            row.path = nil
            row.readyBitmap = nil
            return row
        }
        row.width = built.width
        row.height = built.height
        row.bytes = built.bytes
        row.sha256 = built.sha256
        row.generated = built.generated
        row.readyBitmap = built.readyBitmap?.path
        return row
    }
}

/// The slice job's result: one `slices/<device>.json` per device class.
struct WrittenSlices: CachedOutput {
    let devices: [String]

    var files: [String] { devices.map { "slices/\($0).json" } }
}
