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

    /// `devices` are those `recipe` makes selections for, with their rows' digests.
    func job(manifest: JobRef<BuiltManifest>, devices: [PlannedDevice], recipe: SelectionRecipe) -> Job<WrittenSlices> {
        job(Input(manifest: Upstream(manifest), devices: devices, selection: recipe))
    }

    func subject(of input: Input) -> String { "\(outputFolder)/slices" }
    func cacheRoot(for input: Input) -> String? { outputFolder }

    func run(_ input: Input, context: JobContext) throws -> WrittenSlices {
        let assets = input.manifest.made(in: context)?.manifest.assets ?? []
        // Each built variant's place in the manifest by its path, not a copy of it: a dictionary
        // of the entries themselves was about 1.1 KB a set while it lived (issue 54, item 14).
        var places: [String: VariantPlace] = [:]
        places.reserveCapacity(assets.reduce(0) { $0 + $1.variants.count })
        for (asset, entry) in assets.enumerated() {
            for (variant, built) in entry.variants.enumerated() {
                places[built.path] = VariantPlace(asset: Int32(asset), variant: Int32(variant))
            }
        }
        func built(at path: String?) -> VariantEntry? {
            guard let path, let place = places[path] else { return nil }
            return assets[Int(place.asset)].variants[Int(place.variant)]
        }
        let count = input.selection.assets.count
        for planned in input.devices {
            try context.checkCancellation()
            // Streamed, the rows made and measured a part of the assets at a time: one JSON
            // document of 100,000 rows took several times its text to encode, and one device's
            // rows made at once were about 90 MB beside the manifest job (issue 54, item 14).
            let rows = StreamedJSON.List("assets", parts: (count + Self.assetsPerPart - 1) / Self.assetsPerPart) { part in
                let start = part * Self.assetsPerPart
                return input.selection.rows(for: planned.device, assets: start..<min(count, start + Self.assetsPerPart))
                    .map { row in Self.measured(row, built: built(at: row.path)) }
            }
            try StreamedJSON.write(File(device: planned.device, assets: []), lists: [rows],
                                   to: "\(outputFolder)/slices/\(planned.device.id).json")
        }
        return WrittenSlices(devices: input.devices.map(\.device.id))
    }

    /// Assets whose rows are made and written at once: a few hundred rows, as the manifest's
    /// lists are encoded, so that no part's encoder tree is large.
    static let assetsPerPart = 256

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

/// Where a variant is in the built manifest: its asset's index, and its own among the asset's.
private struct VariantPlace {
    let asset: Int32
    let variant: Int32
}

/// The slice job's result: one `slices/<device>.json` per device class.
struct WrittenSlices: CachedOutput {
    let devices: [String]

    var files: [String] { devices.map { "slices/\($0).json" } }
}
