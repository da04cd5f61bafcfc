import Foundation
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the job that writes, for every device class the pipeline names, `slices/<device>.json`:
/// which built variant file of each asset that device downloads, and why (`docs/variant-selection.md`).
struct SliceStage {
    static let version = 1
    let options: SliceStageOptions
    let outputFolder: String
    let assets: [CatalogAsset]

    /// One line of a device's slice file.
    struct Row: Codable, Sendable {
        var asset: String
        var appearance: String
        /// The traits of the catalog entry chosen.
        var traits: VariantTraits
        var action: String
        /// The variant file under the output folder; absent when it failed or was not built.
        var path: String?
        var width: Int?
        var height: Int?
        var bytes: Int?
        var sha256: ContentHash?
        var generated: Bool?
        var tags: [String]
        /// The ready-to-draw bitmap made for the variant, when there is one.
        var readyBitmap: String?
        var reason: String
    }

    struct File: Codable, Sendable {
        var device: DeviceClass
        var assets: [Row]
    }

    /// Built variants by variant group and scale.
    static func variantsByGroup(_ manifest: Manifest?) -> [String: [DisplayScale: VariantEntry]] {
        var variants: [String: [DisplayScale: VariantEntry]] = [:]
        for asset in manifest?.assets ?? [] {
            for variant in asset.variants { variants[asset.name.name, default: [:]][variant.scale] = variant }
        }
        return variants
    }

    /// What `device` downloads of every asset: the selection rule mapped onto the built files.
    static func rows(assets: [CatalogAsset], device: DeviceClass,
                     variants: [String: [DisplayScale: VariantEntry]]) -> [Row] {
        var rows: [Row] = []
        for asset in assets {
            for decision in VariantSelector.select(asset, for: device) {
                let group = CatalogSources.variantGroup(asset.name, decision.entry.traits)
                let scale = decision.action == .downscale
                    ? DisplayScale(factor: decision.targetScale ?? 1) : decision.entry.traits.scale ?? .x1
                let variant = scale.flatMap { variants[group.name]?[$0] }
                    ?? (decision.entry.traits.densityDPI != nil ? variants[group.name]?[.x1] : nil)
                rows.append(Row(asset: asset.name.name, appearance: decision.appearance,
                                traits: decision.entry.traits, action: decision.action.rawValue, path: variant?.path,
                                width: variant?.width, height: variant?.height, bytes: variant?.bytes,
                                sha256: variant?.sha256, generated: variant?.generated, tags: asset.tags,
                                readyBitmap: variant?.readyBitmap?.path, reason: decision.reason))
            }
        }
        return rows
    }

    func job(manifest: JobKey) throws(TesseraError) -> Job {
        var known: [DeviceClass] = []
        for id in options.devices { known.append(try DeviceCatalog.device(id)) }
        let devices = known
        let key = JobKey(stage: "slice", version: Self.version, options: ["devices": options.devices.joined(separator: ",")],
                         inputs: [manifest.hash])
        let assets = self.assets, outputFolder = self.outputFolder
        return Job(key: key, stage: "slice", subject: "\(outputFolder)/slices", dependencies: [manifest],
                   priority: StagePriority.manifest, toleratesFailedDependencies: true) { context in
            let built = context.outcome(of: manifest)?.value(as: BuiltManifest.self)?.manifest
            let variants = Self.variantsByGroup(built)
            for device in devices {
                try context.checkCancellation()
                let rows = Self.rows(assets: assets, device: device, variants: variants)
                try AtomicFile.write(try StableJSON.encode(File(device: device, assets: rows)),
                                     to: "\(outputFolder)/slices/\(device.id).json")
            }
            return devices.count
        }
    }
}
