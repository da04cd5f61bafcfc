import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// Plans packing as jobs the shared scheduler spreads over every core:
///
/// - one `compress` job per payload worth compressing (decided once, reused by every bundle that
///   holds the file; already-compressed formats and ready bitmaps get none),
/// - one `bundle` job per distinct bundle: device classes that select the same contents for a
///   pack share one file, written once,
/// - one `object` job per file any bundle holds: the entry as a download of its own
///   (`objects/<sha256>`), reusing its compress job's xz.
///
/// The manifest stage then lists the packs and bundles in `manifest.json` (`ManifestStage.Packs`).
struct BundleJobs {
    let options: PackStageOptions
    let outputFolder: String
    let outputs: PlannedOutputs
    /// The device classes added, in order.
    private var devices: [DeviceClass] = []
    /// What each device class's bundles hold, pack by pack, as the devices are added.
    private var plans: [BundlePlan] = []
    /// The packs by ID, and by the tag list each was made for: most rows share a handful of tag
    /// lists, each made into a pack once.
    private var packs: [String: Pack] = [:]
    private var packOfTags: [[String]: Pack] = [:]
    private var appFiles: Set<ManifestStage.AppFile> = []
    private let planner: PackPlanner

    init(options: PackStageOptions, outputFolder: String, outputs: PlannedOutputs) {
        self.options = options
        self.outputFolder = outputFolder
        self.outputs = outputs
        planner = PackPlanner(initialInstallTags: options.initialInstallTags, prefetchOrder: options.prefetchOrder)
    }

    /// Plans `selection`'s device's bundles and in-app files. Devices are added one at a time, so
    /// that the planner never holds every device's rows at once: all of them were the peak of
    /// planning a large build (about 4.4 KB an asset, issue 54, item 14).
    mutating func add(_ selection: DeviceSelection) {
        devices.append(selection.device)
        addPlans(of: selection)
        addAppFiles(of: selection)
    }

    /// The record traits of an image entry, sorted by key (`docs/bundle-format.md`): what an app
    /// loading it needs to know to draw it like the catalog would. Written in key order directly
    /// (`appearance`, `gamut`, `height-class`, `idiom`, `preserves-vector`, `rendering-intent`, `resizing`,
    /// `scale`, `size`, `width-class`):
    /// a dictionary sorted and joined per row was a visible part of planning.
    static func recordTraits(of row: SliceRow) -> String {
        var traits = "appearance=" + row.appearance.rawValue
        if row.traits.displayGamut == .displayP3 { traits += ";gamut=" + DisplayGamut.displayP3.rawValue }
        if let height = row.traits.heightClass { traits += ";height-class=" + height.rawValue }
        traits += ";idiom=" + row.traits.idiom
        if row.presentation?.preservesVectorRepresentation == true { traits += ";preserves-vector=true" }
        if let intent = row.presentation?.renderingIntent { traits += ";rendering-intent=" + intent }
        if let resizing = row.presentation?.resizing { traits += ";resizing=" + resizing.recordValue }
        traits += ";scale=" + (row.traits.scale?.description ?? "any")
        if let size = row.traits.size { traits += ";size=" + size }
        if let width = row.traits.widthClass { traits += ";width-class=" + width.rawValue }
        return traits
    }

    /// Adds every compress and bundle job to `graph`; returns what the manifest stage lists.
    /// The bundle plans (each device class's files grouped by pack), then one compress job per
    /// file worth compressing, then one bundle job per distinct contents.
    func addJobs(to graph: inout JobGraph) -> ManifestStage.Packs {
        // One compression per file, whichever bundles hold it.
        let compressor = options.compressor
        let compress = CompressStage(options: compressor, outputFolder: outputFolder)
        let bundle = BundleStage(options: compressor, outputFolder: outputFolder)
        var compressions: [String: JobRef<CompressedPayload>] = [:]
        var decided: Set<CompressionChoice> = []
        for plan in plans {
            for item in plan.items where decided.insert(CompressionChoice(path: item.file.path, kind: item.kind)).inserted {
                guard compressor.mayCompress(kind: item.kind, name: item.file.path, leadingBytes: []) else { continue }
                compressions[item.file.path] = graph.add(compress.job(item))
            }
        }
        let object = ObjectStage(options: compressor, outputFolder: outputFolder)
        var objects: [CompressionChoice: JobRef<WrittenObject>] = [:]
        for plan in plans {
            for item in plan.items where objects[CompressionChoice(path: item.file.path, kind: item.kind)] == nil {
                objects[CompressionChoice(path: item.file.path, kind: item.kind)] = graph.add(object.job(ObjectStage.Input(
                    file: item.file, kind: item.kind, compressed: compressions[item.file.path].map(Upstream.init))))
            }
        }
        // Identical contents make identical job keys: the graph keeps one job, one file.
        var bundleOf: [BundleKey: JobRef<WrittenBundle>] = [:]
        for plan in plans {
            bundleOf[BundleKey(pack: plan.pack, device: plan.device)] = graph.add(bundle.job(plan, compressions: compressions))
        }
        return ManifestStage.Packs(options: options, devices: devices, packs: packs, bundles: bundleOf,
                                   objects: objects.sorted { ($0.key.path, $0.key.kind.rawValue) < ($1.key.path, $1.key.kind.rawValue) }.map(\.value),
                                   appFiles: appFiles.sorted())
    }

    /// `selection`'s device's files of what stays in the app, by asset: the variant each in-app
    /// image row selects (what the App Store's thinning leaves that device) and the in-app colour
    /// and data sets' files. Sorted when listed, so the manifest job's input encodes in one order.
    private mutating func addAppFiles(of selection: DeviceSelection) {
        for row in selection.rows where row.inApp != nil {
            guard let path = row.path else { continue }
            appFiles.insert(ManifestStage.AppFile(device: selection.device.id, asset: row.asset, path: path))
        }
        for item in selection.appData {
            appFiles.insert(ManifestStage.AppFile(device: selection.device.id, asset: item.name.name, path: item.file.path))
        }
    }

    /// What `selection`'s device's bundles hold, pack by pack.
    private mutating func addPlans(of selection: DeviceSelection) {
        var contents: [String: [BundleItem]] = [:]
        for row in selection.rows {
            // What the app keeps (icons) is compiled into it: no pack may hold it.
            guard row.inApp == nil, let path = row.path, let file = producer(of: path) else { continue }
            contents[pack(for: row.tags).id, default: []] += items(of: row, path: path, file: file)
        }
        for item in selection.data {
            contents[pack(for: item.tags).id, default: []].append(
                BundleItem(name: item.file.path, kind: .data, traits: "kind=\(item.kind)", file: item.file))
        }
        for (packID, items) in contents {
            plans.append(BundlePlan(pack: packID, device: selection.device.id, items: BundlePlan.unique(items)))
        }
    }

    /// The pack of a tag list, made the first time it is met.
    private mutating func pack(for tags: [String]) -> Pack {
        if let known = packOfTags[tags] { return known }
        let pack = planner.pack(for: tags)
        packOfTags[tags] = pack
        packs[pack.id] = pack
        return pack
    }

    /// A selected image's entries: its variant, and the vector and ready bitmap that go with it.
    private func items(of row: SliceRow, path: String, file: PlannedFile) -> [BundleItem] {
        // Entries keep the variant file's name, trait suffixes included (`icon~dark@3x.png`).
        let traits = Self.recordTraits(of: row)
        var items = [BundleItem(name: Self.entryName(path, folder: "assets"), kind: .image, traits: traits, file: file)]
        if let vector = row.vector.flatMap(producer(of:)) {
            // The one vector file serves every scale: its record says `scale=any`.
            var drawn = row
            drawn.traits.scale = nil
            items.append(BundleItem(name: Self.entryName(vector.path, folder: "assets"), kind: .image,
                                    traits: Self.recordTraits(of: drawn), file: vector, accompanies: file.producer))
        }
        if let bitmap = row.readyBitmap.flatMap(producer(of:)) {
            items.append(BundleItem(name: Self.entryName(bitmap.path, folder: "bitmaps"), kind: .readyBitmap,
                                    traits: traits, file: bitmap, accompanies: file.producer))
        }
        return items
    }

    /// `variants/App/icon~dark@3x.png` → `assets/App/icon~dark@3x.png`.
    static func entryName(_ path: String, folder: String) -> String {
        BundleEntryName.entry(forOutput: path, folder: folder)
    }

    private func producer(of path: String) -> PlannedFile? {
        outputs.files[path]
    }
}

