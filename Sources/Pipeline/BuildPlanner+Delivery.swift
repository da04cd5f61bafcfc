import Delivery
import Foundation
import JobEngine
import Slicing
import TesseraCore

extension BuildPlanner {
    /// The files that are not images made per scale: data sets' files (into the manifest and
    /// packs) and the sets that stay in the app (`OUTPUT/app/`).
    func addCarriedJobs(_ scan: Scan, outputs: inout PlannedOutputs, written: [JobRef<WrittenVariant>],
                        to graph: inout JobGraph) -> CarriedJobs {
        let dataStage = DataStage(inputFolder: inputFolder, outputFolder: outputFolder, hashing: hashing)
        let app = AppStage(inputFolder: inputFolder, outputFolder: outputFolder, hashing: hashing)
        var carried = CarriedJobs()
        let writers = Dictionary(written.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for asset in scan.read.assets where scan.keeping.reason(for: asset) != nil {
            var copied = AppKeeping.files(of: asset, inputFolder: inputFolder)
            if scan.keeping.rewritesAsCatalog(asset), let folder = AppKeeping.setFolder(of: asset),
               let set = appCatalogJob(for: asset, folder: folder, outputs: outputs, writers: writers) {
                carried.appSets.append(graph.add(set))
                // The set's own files are written by its job; the groups' and catalog's descriptions are copied.
                copied = copied.filter { !$0.hasPrefix(folder + "/") }
            }
            let images = Set(asset.entries.map(\.file))
            let validated = Self.variantProducers(of: asset, in: outputs)
            for file in copied {
                carried.kept.append(graph.add(app.job(for: asset, file: file, validated: images.contains(file) ? validated : [])))
            }
        }
        for asset in scan.read.assets where asset.kind != .image && asset.kind != .appIcon {
            for file in DataStage.files(of: asset) {
                let job = graph.add(dataStage.job(for: asset, file: file))
                carried.data.append(job)
                outputs.addData(PlannedData(name: asset.name, kind: asset.kind.rawValue,
                                            file: PlannedFile(path: DataStage.relativePath(of: asset, file: file),
                                                              producer: job.key),
                                            tags: asset.tags))
            }
        }
        return carried
    }

    /// The jobs that write `asset`'s variants, which decode its images: a kept image is copied
    /// into the app only after they succeed.
    static func variantProducers(of asset: CatalogAsset, in outputs: PlannedOutputs) -> [Prerequisite] {
        let groups = Set(asset.entries.map { CatalogSources.variantGroup(asset.name, $0.traits).name })
        var producers: Set<Prerequisite> = []
        for group in groups { for file in (outputs.variants[group] ?? [:]).values { producers.insert(file.producer) } }
        return producers.sorted { $0.key.hash.hex < $1.key.hash.hex }
    }

    /// The jobs that carry files through, by where they go.
    struct CarriedJobs {
        /// Colour, data and symbol sets' files (`data/`).
        var data: [JobRef<CarriedData>] = []
        /// Files copied as they are into `app/`.
        var kept: [JobRef<CarriedData>] = []
        /// Image sets written for Xcode into `app/`.
        var appSets: [JobRef<AppCatalogSet>] = []
    }

    /// The job writing `asset` as an image set for Xcode from its variants; nil when a group of
    /// it has no variant planned (its sources could not be read: the set is copied as it is, and
    /// the read error reported).
    private func appCatalogJob(for asset: CatalogAsset, folder: String, outputs: PlannedOutputs,
                               writers: [JobKey: JobRef<WrittenVariant>]) -> Job<AppCatalogSet>? {
        let contents = "\(folder)/Contents.json"
        var groups: [String: String] = [:], variants: [AppCatalogStage.Variant] = []
        for entry in asset.entries {
            let group = CatalogSources.variantGroup(asset.name, entry.traits).name
            groups[(entry.file as NSString).lastPathComponent] = group
        }
        for group in Set(groups.values).sorted() {
            guard let planned = outputs.variants[group], !planned.isEmpty else { return nil }
            for (scale, file) in planned.sorted(by: { $0.key < $1.key }) {
                guard let writer = writers[file.producer.key] else { return nil }
                variants.append(AppCatalogStage.Variant(group: group, scale: scale, file: Upstream(writer)))
            }
        }
        let location = "\(inputFolder)/\(contents)"
        let input = AppCatalogStage.Input(name: asset.name,
                                          contents: SourceFile(path: location, contentHash: try? hashing.contentHash(ofFileAt: location)),
                                          folder: folder, groups: groups,
                                          variants: variants)
        return AppCatalogStage(outputFolder: outputFolder).job(input)
    }

    /// With a `slice` stage: each device class's selection, made once, read by the slice report
    /// and (with a `pack` stage) the bundle jobs; the target and deployment problems it finds.
    func addDeliveryJobs(_ scan: Scan, outputs: PlannedOutputs, manifest: JobRef<BuiltManifest>, to graph: inout JobGraph,
                         problems: inout [BuildProblem]) throws(TesseraError) -> (packing: ManifestStage.Packs?, sliced: JobKey?) {
        guard let slice = definition.slice else { return (nil, nil) }
        var devices: [DeviceClass] = []
        for id in TargetMembership.devices(slice: slice.devices, targets: definition.targets) {
            devices.append(try KnownDevices.device(id))
        }
        let membership = TargetMembership(targets: definition.targets, sharedDevices: Set(slice.devices))
        problems += targetProblems(scan.read.assets, membership: membership)
        problems += deploymentProblems(devices, membership: membership)
        let recipe = SelectionRecipe(assets: scan.read.assets, outputs: outputs, renders: scan.renders,
                                     membership: membership, app: definition.app, keeping: scan.keeping)
        var bundles = definition.pack.map { BundleJobs(options: $0, outputFolder: outputFolder, outputs: outputs) }
        var planned: [SliceStage.PlannedDevice] = [], unmade: [DeviceSelection.UnmadeSlot] = []
        var androidShipped: Set<String>?
        // One device's selection at a time, each dropped before the next is made: every device's
        // rows at once were the peak of planning a large build (about 4.4 KB an asset; issue 54,
        // item 14). A device's selection made alone is its part of all of them (`SelectionRecipe`).
        for device in devices {
            let selection = recipe.make(for: device)
            unmade += selection.unmadeSlots
            if device.platform == .android { androidShipped = (androidShipped ?? []).union(selection.rows.map(\.asset)) }
            // Rows are plain values; encoding them cannot fail but by a programming error.
            planned.append(SliceStage.PlannedDevice(device: device, rows: try! InputDigest.of(selection.rows)))
            bundles?.add(selection)
        }
        problems += unmadeSlotProblems(unmade)
        problems += shadowedBitmapProblems(scan.read.assets, androidShipped: androidShipped, keeping: scan.keeping)
        let sliced = graph.add(SliceStage(outputFolder: outputFolder).job(manifest: manifest, devices: planned,
                                                                           recipe: recipe)).key
        guard let bundles else { return (nil, sliced) }
        return (bundles.addJobs(to: &graph), sliced)
    }

    /// One warning per app icon slot some device draws that has no file of its own and cannot be
    /// made from the set's single-size icon, naming the devices' scales: those devices get nothing
    /// for it (no row, nothing counted in the size report), where Xcode would have resized the icon.
    func unmadeSlotProblems(_ slots: [DeviceSelection.UnmadeSlot]) -> [BuildProblem] {
        var scales: [String: (slot: DeviceSelection.UnmadeSlot, scales: Set<Int>)] = [:]
        for unmade in slots {
            let key = "\(unmade.file)\u{0}\(unmade.asset)\u{0}\(unmade.slot)"
            scales[key, default: (unmade, [])].scales.insert(unmade.scale)
        }
        return scales.values.sorted { $0.slot < $1.slot }.map { found in
            let at = found.scales.sorted().map { "\($0)x" }.joined(separator: ", ")
            let why = definition.downscale != nil
                ? "the single-size icon cannot be resized by Tessera (a vector, or it could not be read)"
                : "this pipeline has no downscale stage to make it from the single-size icon"
            return BuildProblem(severity: .warning, file: "\(inputFolder)/\(found.slot.file)", stage: .slice,
                                reason: "the app icon '\(found.slot.asset)' has no file for its \(found.slot.slot) slot at \(at) and \(why): devices drawing it get none")
        }
    }

    /// One warning per Android bitmap resource that would be packed but that no Android class of
    /// the build gets, because a same-named XML drawable (an `anydpi-vNN` vector) is what each of
    /// them draws: the bitmaps serve only older Android, which the build has no class for, so no
    /// pack holds them. Said, so that an app whose minSdk is below the vector's API level knows.
    /// `androidShipped`: the assets the build's Android classes ship a row of; nil without an Android class.
    func shadowedBitmapProblems(_ assets: [CatalogAsset], androidShipped: Set<String>?,
                                keeping: AppKeeping) -> [BuildProblem] {
        guard let shipped = androidShipped else { return [] }
        return assets.filter { asset in
            asset.kind == .image && !asset.xmlDrawables.isEmpty && keeping.reason(for: asset) == nil
                && !shipped.contains(asset.name.name) && asset.entries.contains { $0.traits.densityDPI != nil }
        }.map { asset in
            let vector = asset.xmlDrawables.map(\.file).sorted().first ?? asset.name.name
            return BuildProblem(severity: .warning, file: "\(inputFolder)/\(vector)", stage: .slice,
                                reason: "every Android class of this build draws this XML drawable, not the same-named bitmaps (anydpi beats every density where the API level reaches it): no pack holds the bitmaps, which only Android older than the drawable's API level draws (the built-in classes are a current Android); if the app runs on such devices, leave the bitmaps untagged so that they stay in res/")
        }
    }
}
