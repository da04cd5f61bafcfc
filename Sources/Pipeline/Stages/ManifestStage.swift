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
struct ManifestStage: Stage {
    struct Input: Encodable, Sendable {
        let manifest: Upstream<BuiltManifest>
        /// What the pack stage planned; nil when the pipeline does not pack.
        let packing: Packing?
    }

    /// The device classes, packs and bundles a packing build lists.
    struct Packing: Encodable, Sendable {
        let devices: [DeviceClass]
        /// Sorted by ID.
        let packs: [Pack]
        /// Sorted by pack and device.
        let bundles: [Bundle]
        /// Every bundle entry's object job, sorted by the file's path.
        let objects: [Upstream<WrittenObject>]
        /// Sorted by device, asset and path.
        let appFiles: [AppFile]
    }

    struct Bundle: Encodable, Sendable {
        let pack: String
        let device: String
        let file: Upstream<WrittenBundle>
    }

    /// One built file a device class gets of an asset that stays in the app (`AppShare`).
    struct AppFile: Encodable, Sendable, Hashable, Comparable {
        let device: String
        let asset: String
        let path: String

        static func < (lhs: AppFile, rhs: AppFile) -> Bool {
            (lhs.device, lhs.asset, lhs.path) < (rhs.device, rhs.asset, rhs.path)
        }
    }

    typealias Output = WrittenManifests
    static let kind = JobKind.manifest
    // 6: the minor version, objects and predecessors.
    static let version = 6
    static let priority = StagePriority.manifest
    static let toleratesFailedInputs = true
    static let keepsResults = true
    let options: Options
    let outputFolder: String

    struct Options: Codable, Hashable, Sendable {
        /// `manifest.json`'s path relative to the output folder: building into another folder is the same result.
        let manifestFile: String
        /// The pack stage's listing settings; nil when the pipeline does not pack.
        let listing: Listing?
        /// The manifests of earlier builds it lists (`--against`), newest first; nil for none.
        let predecessors: [ManifestReference]?
    }

    /// What of the pack stage's options changes the manifests.
    struct Listing: Codable, Hashable, Sendable {
        let baseURL: String
        let packLimit: Int
        let applePackIDs: ApplePackIDs
        let appleODR: Bool
        let playDeviceGroups: [String: [String]]
        /// Whether Apple's `ba-package` is here to package the asset packs: a build on a machine
        /// with it writes archives that one without it cannot, so the two are different results.
        let packagesArchives: Bool
    }

    /// What the pack stage planned (`BundleJobs`).
    struct Packs: Sendable {
        let options: PackStageOptions
        let devices: [DeviceClass]
        let packs: [String: Pack]
        let bundles: [BundleKey: JobRef<WrittenBundle>]
        /// Sorted by the file's path.
        let objects: [JobRef<WrittenObject>]
        let appFiles: [AppFile]
    }

    init(outputFolder: String, manifestFile: String, packing: PackStageOptions?, predecessors: [ManifestReference]? = nil) {
        options = Options(manifestFile: manifestFile, listing: packing.map {
            Listing(baseURL: $0.baseURL, packLimit: $0.packLimit, applePackIDs: $0.applePackIDs, appleODR: $0.appleODR,
                    playDeviceGroups: $0.playDeviceGroups, packagesArchives: AssetPackPackager.find() != nil)
        }, predecessors: predecessors.flatMap { $0.isEmpty ? nil : $0 })
        self.outputFolder = outputFolder
    }

    func job(manifest: JobRef<BuiltManifest>, packs: Packs?) -> Job<WrittenManifests> {
        job(Input(manifest: Upstream(manifest), packing: packs.map { packs in
            Packing(devices: packs.devices, packs: packs.packs.values.sorted { $0.id < $1.id },
                    bundles: packs.bundles.sorted { $0.key < $1.key }.map {
                        Bundle(pack: $0.key.pack, device: $0.key.device, file: Upstream($0.value))
                    }, objects: packs.objects.map(Upstream.init), appFiles: packs.appFiles)
        }))
    }

    func subject(of input: Input) -> String { "\(outputFolder)/\(options.manifestFile)" }
    func cacheRoot(for input: Input) -> String? { outputFolder }

    func run(_ input: Input, context: JobContext) throws -> WrittenManifests {
        guard let built = input.manifest.made(in: context) else {
            throw TesseraError(.dependencyFailed, origin: ProblemOrigin(Self.kind), reason: "no manifest was built")
        }
        var manifest = built.manifest
        manifest.minorVersion = Manifest.currentMinorVersion
        manifest.predecessors = options.predecessors
        var warnings: [String] = []
        if let packing = input.packing, let listing = options.listing {
            warnings = Self.list(packing, listing: listing, in: &manifest, context: context)
        }
        try context.checkCancellation()
        // Variant, bitmap, data and bundle files are renamed into place unflushed: they (and the
        // folders holding them) are flushed together, and only they (`DurableWrites`), before
        // the manifest naming them appears.
        if !DurableWrites.flush(under: outputFolder) {
            throw TesseraError(.io, file: outputFolder, origin: ProblemOrigin(Self.kind), reason: "could not flush the written files to disk")
        }
        try ManifestWriter.write(manifest, to: subject(of: input))
        var files = [options.manifestFile]
        if let listing = options.listing {
            files += try Self.writePlatformManifests(manifest, listing: listing, into: outputFolder, warnings: &warnings)
        }
        return WrittenManifests(manifest: manifest, warnings: warnings, sourceWarnings: built.warnings, files: files)
    }

    /// The stores' own manifests beside `manifest.json`: Apple's managed asset packs (packaged
    /// when `ba-package` is present), Play's asset packs for Android device classes, and the
    /// deprecated On-Demand Resources plists when asked. Returns the files written.
    private static func writePlatformManifests(_ manifest: Manifest, listing options: Listing, into outputFolder: String,
                                               warnings: inout [String]) throws(TesseraError) -> [String] {
        var files: [String] = []
        let plan = try ManagedAssetPackPlan(manifest, ids: options.applePackIDs)
        warnings += plan.warnings
        if !plan.packs.isEmpty {
            files += try ManagedAssetPackFiles.write(plan, manifest: manifest, mode: options.applePackIDs, into: outputFolder)
            if options.packagesArchives, let packager = AssetPackPackager.find() {
                files += try packager.package(plan, in: outputFolder)
            }
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
    private static func list(_ packing: Packing, listing: Listing, in manifest: inout Manifest,
                             context: JobContext) -> [String] {
        var entries: [BundleEntry] = []
        var warnings: Set<String> = []
        for bundle in packing.bundles {
            guard let written = bundle.file.made(in: context), let file = written.file else { continue }
            if file.bytes > listing.packLimit {
                warnings.insert("\(written.path) is \(ByteCount(bytes: file.bytes)), over the "
                    + "\(ByteCount(bytes: listing.packLimit)) pack limit")
            }
            entries.append(BundleEntry(
                pack: bundle.pack, device: bundle.device, url: listing.baseURL + written.path,
                path: written.path, bytes: file.bytes, uncompressedSize: file.uncompressedSize, sha256: file.sha256,
                entries: file.entries))
        }
        let published = Set(entries.map(\.pack))
        manifest.deviceClasses = packing.devices
        manifest.packs = packing.packs.filter { published.contains($0.id) }.map {
            PackEntry(id: $0.id, tags: $0.tags, category: $0.category, priority: $0.priority)
        }
        manifest.bundles = entries
        manifest.appShares = appShares(packing.appFiles, of: manifest)
        manifest.objects = objects(packing.objects, of: manifest, context: context)
        return warnings.sorted()
    }

    /// The objects of the listed bundles' entries, each once, sorted by SHA-256; an object whose
    /// entry no bundle kept (its variant failed) is left out. Nil without bundles.
    private static func objects(_ written: [Upstream<WrittenObject>], of manifest: Manifest,
                                context: JobContext) -> [TransferObject]? {
        guard !manifest.bundles.isEmpty else { return nil }
        let files = BundleEntryFiles(manifest)
        let listed = Set(manifest.bundles.flatMap(\.entries).compactMap { files[entry: $0]?.sha256 })
        var objects: [ContentHash: TransferObject] = [:]
        for job in written {
            guard let object = job.made(in: context)?.object, listed.contains(object.sha256) else { continue }
            objects[object.sha256] = object
        }
        return objects.values.sorted { $0.sha256 < $1.sha256 }
    }

    /// Each device class's in-app files measured from the built manifest; a file that was not
    /// built (its asset failed) counts nothing. Nil when nothing stays in the app.
    private static func appShares(_ files: [AppFile], of manifest: Manifest) -> [AppShare]? {
        guard !files.isEmpty else { return nil }
        var bytes: [String: Int] = [:]
        for asset in manifest.assets { for variant in asset.variants { bytes[variant.path] = variant.bytes } }
        for item in manifest.data { bytes[item.path] = item.bytes }
        // One pass over the files in their order (by device, asset and path), each device's
        // assets and each asset's files consecutive: a dictionary of each device's assets and
        // their copies into the shares were about 50 MB at once at 100,000 tiny masters, beside
        // the slice job at the build's peak (issue 54, item 14). `AppShare` and `AppShareAsset`
        // sort what they are given, so the result is what those dictionaries made.
        let ordered = zip(files, files.dropFirst()).allSatisfy { !($1 < $0) } ? files : files.sorted()
        var shares: [AppShare] = []
        var index = ordered.startIndex
        while index < ordered.endIndex {
            let device = ordered[index].device
            var assets: [AppShareAsset] = []
            while index < ordered.endIndex, ordered[index].device == device {
                let asset = ordered[index].asset
                var total = 0, paths: [String] = []
                while index < ordered.endIndex, ordered[index].device == device, ordered[index].asset == asset {
                    // A file that was not built (its asset failed) counts nothing.
                    if let size = bytes[ordered[index].path] {
                        total += size
                        paths.append(ordered[index].path)
                    }
                    index += 1
                }
                if !paths.isEmpty { assets.append(AppShareAsset(asset: asset, bytes: total, files: paths)) }
            }
            if !assets.isEmpty { shares.append(AppShare(device: device, assets: assets)) }
        }
        return shares.isEmpty ? nil : shares
    }
}

/// The manifest job's result: the manifest as written, the warnings of packing (bundles over the
/// pack limit) and those the variants carried, and every file it wrote.
struct WrittenManifests: CachedOutput {
    let manifest: Manifest
    let warnings: [String]
    let sourceWarnings: [SourceWarning]
    let files: [String]
}
