import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// Makes the job that packs the built variants into tagged bundles — one per pack and device
/// class — and publishes `manifest.json` with packs and bundles, Apple's `OnDemandResources.plist`
/// and per-device `AssetPackManifest.plist`, and Background Assets manifests.
struct PackStage {
    static let version = 1
    let options: PackStageOptions
    let devices: [DeviceClass]
    let outputFolder: String
    let inputFolder: String
    let assets: [CatalogAsset]
    let manifestPath: String

    func job(manifest: JobKey) -> Job {
        let key = JobKey(stage: "pack", version: Self.version,
                         options: ["devices": devices.map(\.id).joined(separator: ","),
                                   "initial": options.initialInstallTags.joined(separator: ","),
                                   "prefetch": options.prefetchOrder.joined(separator: ","),
                                   "base-url": options.baseURL, "min-saving": String(options.minimumSaving)],
                         inputs: [manifest.hash])
        let stage = self
        return Job(key: key, stage: "pack", subject: "\(outputFolder)/bundles", dependencies: [manifest],
                   priority: StagePriority.manifest, toleratesFailedDependencies: true, keepsResult: true) { context in
            guard var built = context.outcome(of: manifest)?.value(as: BuiltManifest.self)?.manifest else {
                throw TesseraError(.dependencyFailed, stage: "pack", reason: "no manifest was built")
            }
            let published = try stage.pack(&built, checkpoint: { () throws(TesseraError) in try context.checkCancellation() })
            return published
        }
    }

    /// Writes every bundle, then the manifests; returns the final manifest and the size warnings.
    func pack(_ manifest: inout Manifest, checkpoint: () throws(TesseraError) -> Void) throws(TesseraError) -> PublishedManifest {
        let planner = PackPlanner(initialInstallTags: options.initialInstallTags, prefetchOrder: options.prefetchOrder)
        let variants = SliceStage.variantsByGroup(manifest)
        var packs: [String: Pack] = [:]
        var bundles: [BundleEntry] = []
        var warnings: [String] = []
        for device in devices {
            // What goes in each pack for this device: its chosen variants, their bitmaps, carried data.
            var contents: [String: [(name: String, kind: BundleRecord.Kind, traits: String, file: String)]] = [:]
            for row in SliceStage.rows(assets: assets, device: device, variants: variants) {
                guard let path = row.path else { continue }
                let pack = planner.pack(for: row.tags)
                packs[pack.id] = pack
                let suffix = row.appearance == "any" ? "" : "~\(row.appearance)"
                let ext = URL(fileURLWithPath: path).pathExtension
                let traits = "appearance=\(row.appearance);scale=\(row.traits.scale?.description ?? "any")"
                contents[pack.id, default: []].append(("assets/\(row.asset)\(suffix).\(ext)", .image, traits, path))
                if let bitmap = row.readyBitmap {
                    contents[pack.id, default: []].append(("bitmaps/\(row.asset)\(suffix).bitmap", .readyBitmap, traits, bitmap))
                }
            }
            for item in manifest.data {
                let pack = planner.pack(for: item.tags)
                packs[pack.id] = pack
                contents[pack.id, default: []].append((item.path, .data, "kind=\(item.kind)", item.path))
            }
            for (packID, items) in contents.sorted(by: { $0.key < $1.key }) {
                try checkpoint()
                let relative = "bundles/\(packID)/\(device.id).tsb"
                let writer = try BundleWriter(path: "\(outputFolder)/\(relative)", minimumSaving: options.minimumSaving)
                var names: Set<String> = []
                var uncompressed = 0
                for item in items.sorted(by: { $0.name < $1.name }) where names.insert(item.name).inserted {
                    let bytes = try Self.readFile("\(outputFolder)/\(item.file)")
                    uncompressed += bytes.count
                    try writer.add(name: item.name, kind: item.kind, traits: item.traits, contents: bytes)
                }
                let (size, _) = try writer.finish()
                let file = try Self.readFile("\(outputFolder)/\(relative)")
                if size > options.packLimit {
                    warnings.append("\(relative) is \(ByteCount(bytes: size)), over the \(ByteCount(bytes: options.packLimit)) pack limit")
                }
                bundles.append(BundleEntry(pack: packID, device: device.id, url: options.baseURL + relative, path: relative,
                                           bytes: size, uncompressedSize: uncompressed, sha256: ContentHash.of(file),
                                           entries: names.sorted()))
            }
        }
        manifest.deviceClasses = devices
        manifest.packs = packs.values.sorted { $0.id < $1.id }.map {
            PackEntry(id: $0.id, tags: $0.tags, category: $0.category.rawValue, priority: $0.priority)
        }
        manifest.bundles = bundles.sorted { ($0.pack, $0.device) < ($1.pack, $1.device) }
        try ManifestWriter.write(manifest, to: manifestPath)
        try AppleManifests(manifest: manifest, packs: packs.values.sorted { $0.id < $1.id })
            .write(into: outputFolder)
        return PublishedManifest(manifest: manifest, warnings: warnings)
    }

    static func readFile(_ path: String) throws(TesseraError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, stage: "pack", reason: "cannot read a built file")
        }
        return Array(data)
    }
}

/// The pack job's result: the manifest as published, and warnings (packs over the size limit).
struct PublishedManifest: Sendable {
    let manifest: Manifest
    let warnings: [String]
}
