import Delivery
import Foundation
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the job that writes, for every device class the pipeline names, `slices/<device>.json`:
/// which built variant file of each asset that device downloads, and why (`docs/variant-selection.md`).
struct SliceStage: Stage {
    struct Input: Encodable, Sendable {
        let manifest: Upstream<BuiltManifest>
        /// Each device class and the digest of its planned rows: what the key hashes of them.
        let devices: [PlannedDevice]
        /// Makes the rows again when the job runs. Holding every device's rows from planning to
        /// the end of the build was about 4.4 KB an asset (issue 54, item 14); the selection is
        /// made again from what the build holds anyway, one device at a time. Not encoded: the
        /// rows' digests stand for it.
        let selection: SelectionRecipe

        private enum CodingKeys: String, CodingKey { case manifest, devices }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(manifest, forKey: .manifest)
            try container.encode(devices, forKey: .devices)
        }
    }
    typealias Output = WrittenSlices
    static let kind = JobKind.slice
    static let version = 3
    static let priority = StagePriority.manifest
    static let toleratesFailedInputs = true
    let outputFolder: String

    struct File: Codable, Sendable {
        var device: DeviceClass
        var assets: [SliceRow]
    }

    /// A device class and the digest of the rows planned for it.
    struct PlannedDevice: Encodable, Sendable {
        let device: DeviceClass
        let rows: ContentHash
    }

    /// `selections` are those `recipe` makes; only their devices and their rows' digests are kept.
    func job(manifest: JobRef<BuiltManifest>, selections: [DeviceSelection], recipe: SelectionRecipe) -> Job<WrittenSlices> {
        job(Input(manifest: Upstream(manifest), devices: selections.map { selection in
            // Rows are plain values; encoding them cannot fail but by a programming error.
            PlannedDevice(device: selection.device, rows: try! InputDigest.of(selection.rows))
        }, selection: recipe))
    }

    func subject(of input: Input) -> String { "\(outputFolder)/slices" }
    func cacheRoot(for input: Input) -> String? { outputFolder }

    func run(_ input: Input, context: JobContext) throws -> WrittenSlices {
        let built = input.manifest.made(in: context)?.manifest
        var variants: [String: VariantEntry] = [:]
        for asset in built?.assets ?? [] {
            for variant in asset.variants { variants[variant.path] = variant }
        }
        for planned in input.devices {
            try context.checkCancellation()
            let assets = input.selection.make(for: planned.device).rows
            // Streamed, the rows measured a chunk at a time: one JSON document of 100,000 rows
            // took several times its text to encode (issue 54, item 14).
            let rows = StreamedJSON.List("assets", count: assets.count) { range in
                assets[range].map { row in Self.measured(row, built: row.path.flatMap { variants[$0] }) }
            }
            try StreamedJSON.write(File(device: planned.device, assets: []), lists: [rows],
                                   to: "\(outputFolder)/slices/\(planned.device.id).json")
        }
        return WrittenSlices(devices: input.devices.map(\.device.id))
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
