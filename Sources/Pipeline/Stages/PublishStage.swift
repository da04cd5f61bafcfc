import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// The one stage that writes the build's manifests: `manifest.json`, and, when the pipeline packs,
/// its packs and bundles and Apple's and Background Assets' manifests. It runs last, after every
/// file it names is on disk, and flushes them before the manifest naming them appears.
struct PublishStage: Stage {
    typealias Output = PublishedManifest
    static let name = StageName.publish
    static let version = 4
    let outputFolder: String
    /// `manifest.json`'s path relative to the output folder.
    let manifestFile: String
    /// What the pack stage planned; nil when the pipeline does not pack.
    let packing: Packs?

    /// The packs and the bundle jobs a packing build lists.
    struct Packs: Sendable {
        let options: PackStageOptions
        let devices: [DeviceClass]
        let packs: [String: Pack]
        let bundles: [BundleKey: JobRef<WrittenBundle>]
    }

    func job(manifest: JobRef<BuiltManifest>) -> Job<PublishedManifest> {
        let ordered = (packing?.bundles ?? [:]).sorted { $0.key < $1.key }
        // Relative: building into another folder is the same result.
        var keyOptions = ["manifest": manifestFile]
        if let packing {
            keyOptions["devices"] = packing.devices.map(\.id).joined(separator: ",")
            keyOptions["base-url"] = packing.options.baseURL
            keyOptions["pack-limit"] = String(packing.options.packLimit)
            keyOptions["apple-pack-ids"] = packing.options.applePackIDs.rawValue
            keyOptions["apple-odr"] = String(packing.options.appleODR)
            keyOptions["play-device-groups"] = packing.options.playDeviceGroups.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value.joined(separator: "+"))" }.joined(separator: ",")
        }
        let key = Self.key(options: keyOptions, inputs: [manifest.key.hash] + ordered.map(\.value.key.hash))
        let outputFolder = self.outputFolder, manifestFile = self.manifestFile, packing = self.packing
        let path = "\(outputFolder)/\(manifestFile)"
        let dependencies = [manifest.key] + Array(Set(ordered.map(\.value.key))).sorted()
        return job(key: key, subject: path, dependencies: dependencies, priority: StagePriority.manifest,
                   toleratesFailedDependencies: true, keepsResult: true) { context in
            guard let built = context.result(of: manifest) else {
                throw TesseraError(.dependencyFailed, stage: Self.name, reason: "no manifest was built")
            }
            var manifest = built.manifest
            var warnings: [String] = []
            if let packing {
                warnings = Self.list(packing, bundles: ordered, in: &manifest, context: context)
            }
            try context.checkCancellation()
            // Variant, bitmap, data and bundle files are renamed into place unflushed: one flush
            // of the output's file system makes them all durable before the manifest naming them
            // appears. (No folder yet: nothing was written to flush.)
            if FileManager.default.fileExists(atPath: outputFolder), !FileSystemFlush.flush(containing: outputFolder) {
                throw TesseraError(.io, file: outputFolder, stage: Self.name, reason: "could not flush the written files to disk")
            }
            try ManifestWriter.write(manifest, to: path)
            var files = [manifestFile]
            if let packing {
                files += try Self.writePlatformManifests(manifest, options: packing.options, into: outputFolder, warnings: &warnings)
            }
            return PublishedManifest(manifest: manifest, warnings: warnings, sourceWarnings: built.warnings, files: files)
        }
        .cached(under: outputFolder)
    }

    /// The stores' own manifests beside `manifest.json`: Apple's managed asset packs (packaged
    /// when `ba-package` is present), Play's asset packs for Android device classes, and the
    /// deprecated On-Demand Resources plists when asked. Returns the files written.
    private static func writePlatformManifests(_ manifest: Manifest, options: PackStageOptions, into outputFolder: String,
                                               warnings: inout [String]) throws(TesseraError) -> [String] {
        var files: [String] = []
        let plan = try ManagedAssetPackPlan(manifest, ids: options.applePackIDs)
        warnings += plan.warnings
        if !plan.packs.isEmpty {
            files += try ManagedAssetPackFiles.write(plan, manifest: manifest, mode: options.applePackIDs, into: outputFolder)
            if let packager = AssetPackPackager.find() { files += try packager.package(plan, in: outputFolder) }
        }
        if manifest.deviceClasses.contains(where: { $0.platform == .android }) {
            files += try PlayAssetPackFiles.write(try PlayAssetPackPlan(manifest, deviceGroups: options.playDeviceGroups), into: outputFolder)
        }
        if options.appleODR {
            let odr = OnDemandResourcesFiles(manifest: manifest)
            try odr.write(into: outputFolder)
            files += odr.fileNames
            warnings.append(OnDemandResourcesFiles.deprecation)
        }
        return files
    }

    /// Adds the device classes, packs and written bundles to `manifest`; returns warnings about
    /// bundles over the pack limit.
    private static func list(_ packing: Packs, bundles: [(key: BundleKey, value: JobRef<WrittenBundle>)],
                             in manifest: inout Manifest, context: JobContext) -> [String] {
        var entries: [BundleEntry] = []
        var warnings: Set<String> = []
        let limit = packing.options.packLimit
        for (bundle, job) in bundles {
            guard let written = context.result(of: job), let file = written.file else { continue }
            if file.bytes > limit {
                warnings.insert("\(written.path) is \(ByteCount(bytes: file.bytes)), over the "
                    + "\(ByteCount(bytes: limit)) pack limit")
            }
            entries.append(BundleEntry(
                pack: bundle.pack, device: bundle.device, url: packing.options.baseURL + written.path,
                path: written.path, bytes: file.bytes, uncompressedSize: file.uncompressedSize, sha256: file.sha256,
                entries: file.entries))
        }
        let published = Set(entries.map(\.pack))
        manifest.deviceClasses = packing.devices
        manifest.packs = packing.packs.values.filter { published.contains($0.id) }.sorted { $0.id < $1.id }.map {
            PackEntry(id: $0.id, tags: $0.tags, category: $0.category, priority: $0.priority)
        }
        manifest.bundles = entries
        return warnings.sorted()
    }
}

/// The publish job's result: the manifest as written, the warnings of packing (bundles over the
/// pack limit) and those the variants carried, and every file it wrote.
struct PublishedManifest: CachedOutput {
    let manifest: Manifest
    let warnings: [String]
    let sourceWarnings: [SourceWarning]
    let files: [String]
}
