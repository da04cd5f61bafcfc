import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// Plans the pack stage as jobs the shared scheduler spreads over every core:
///
/// - one `compress` job per payload worth compressing (decided once, reused by every bundle that
///   holds the file; already-compressed formats and ready bitmaps get none),
/// - one `bundle` job per distinct bundle: device classes that select the same contents for a
///   pack share one file, written once,
/// - one `publish` job that writes `manifest.json` with packs and bundles, and Apple's and
///   Background Assets' manifests.
struct PackStage: BuildStage {
    static let version = 2
    let options: PackStageOptions
    let outputFolder: String
    let manifestPath: String
    let selections: [DeviceSelection]
    let outputs: PlannedOutputs

    var compressor: PayloadCompressor {
        PayloadCompressor(mode: options.compression, minimumSaving: options.minimumSaving, level: options.compressionLevel)
    }

    /// The record traits of an image entry, sorted by key (`docs/bundle-format.md`): what an app
    /// loading it needs to know to draw it like the catalog would. Written in key order directly
    /// (`appearance`, `gamut`, `idiom`, `preserves-vector`, `rendering-intent`, `scale`, `size`):
    /// a dictionary sorted and joined per row was a visible part of planning.
    static func recordTraits(of row: SliceRow) -> String {
        var traits = "appearance=" + row.appearance.rawValue
        if row.traits.displayGamut == .displayP3 { traits += ";gamut=" + DisplayGamut.displayP3.rawValue }
        traits += ";idiom=" + row.traits.idiom
        if row.presentation?.preservesVectorRepresentation == true { traits += ";preserves-vector=true" }
        if let intent = row.presentation?.renderingIntent { traits += ";rendering-intent=" + intent }
        traits += ";scale=" + (row.traits.scale?.description ?? "any")
        if let size = row.traits.size { traits += ";size=" + size }
        return traits
    }

    /// Adds every pack job to `graph`; returns the publish job, whose result is a `PublishedManifest`.
    func addJobs(to graph: inout JobGraph, manifest: JobKey) -> JobKey {
        let planner = PackPlanner(initialInstallTags: options.initialInstallTags, prefetchOrder: options.prefetchOrder)
        var packs: [String: Pack] = [:]
        var plans: [BundlePlan] = []
        // Most rows share a handful of tag lists: each is made into a pack once.
        var packOfTags: [[String]: Pack] = [:]
        func pack(for tags: [String]) -> Pack {
            if let known = packOfTags[tags] { return known }
            let pack = planner.pack(for: tags)
            packOfTags[tags] = pack
            packs[pack.id] = pack
            return pack
        }
        for selection in selections {
            var contents: [String: [BundleItem]] = [:]
            for row in selection.rows {
                guard let path = row.path, let file = producer(of: path) else { continue }
                let pack = pack(for: row.tags)
                // Entries keep the variant file's name, trait suffixes included (`icon~dark@3x.png`).
                let traits = Self.recordTraits(of: row)
                contents[pack.id, default: []].append(
                    BundleItem(name: Self.entryName(path, folder: "assets"), kind: .image, traits: traits, file: file))
                if let bitmap = row.readyBitmap.flatMap(producer(of:)) {
                    contents[pack.id, default: []].append(
                        BundleItem(name: Self.entryName(bitmap.path, folder: "bitmaps"), kind: .readyBitmap,
                                   traits: traits, file: bitmap))
                }
            }
            for item in outputs.data {
                let pack = pack(for: item.tags)
                contents[pack.id, default: []].append(
                    BundleItem(name: item.file.path, kind: .data, traits: "kind=\(item.kind)", file: item.file))
            }
            for (packID, items) in contents {
                plans.append(BundlePlan(pack: packID, device: selection.device.id, items: BundlePlan.unique(items)))
            }
        }
        // One compression per file, whichever bundles hold it.
        let compressor = self.compressor
        var compressions: [String: JobKey] = [:]
        var decided: Set<CompressionChoice> = []
        for plan in plans {
            for item in plan.items where decided.insert(CompressionChoice(path: item.file.path, kind: item.kind)).inserted {
                guard compressor.mayCompress(kind: item.kind, name: item.file.path, leadingBytes: []) else { continue }
                compressions[item.file.path] = graph.add(compressJob(item))
            }
        }
        // Identical contents make identical job keys: the graph keeps one job, one file.
        var bundleOf: [BundleKey: JobKey] = [:]
        for plan in plans {
            bundleOf[BundleKey(pack: plan.pack, device: plan.device)] = graph.add(bundleJob(plan, compressions: compressions))
        }
        return graph.add(publishJob(manifest: manifest, bundles: bundleOf, packs: packs))
    }

    /// `variants/App/icon~dark@3x.png` → `assets/App/icon~dark@3x.png`.
    static func entryName(_ path: String, folder: String) -> String {
        BundleEntryName.entry(forOutput: path, folder: folder)
    }

    private func producer(of path: String) -> PlannedFile? {
        outputs.files[path]
    }

    private func compressJob(_ item: BundleItem) -> Job {
        let compressor = self.compressor
        let key = Self.key(.compress, options: ["mode": compressor.mode.rawValue, "level": String(compressor.level),
                                   "min-saving": String(compressor.minimumSaving), "path": item.file.path,
                                   "kind": String(item.kind.rawValue)],
                         inputs: [item.file.producer.hash])
        let path = "\(outputFolder)/\(item.file.path)"
        // liblzma's preset-6 encoder holds about 94 MiB, plus the file and its compressed copy.
        return Job(key: key, stage: StageName.compress, subject: path, dependencies: [item.file.producer],
                   memoryCost: 128 << 20, priority: StagePriority.manifest) { context in
            try context.checkCancellation()
            return CompressedPayload(payload: try PreparedPayload.compressed(
                fileAt: path, kind: item.kind, name: item.file.path, compressor: compressor))
        }
    }

    private func bundleJob(_ plan: BundlePlan, compressions: [String: JobKey]) -> Job {
        let relative = "bundles/\(plan.pack)/\(plan.contentKey.hex.prefix(16)).tsb"
        let target = "\(outputFolder)/\(relative)"
        let compressor = self.compressor
        let used = plan.items.compactMap { compressions[$0.file.path] }
        let key = Self.key(.bundle, options: ["path": relative, "mode": compressor.mode.rawValue, "level": String(compressor.level),
                                   "min-saving": String(compressor.minimumSaving)],
                         inputs: [plan.contentKey] + plan.items.map(\.file.producer.hash))
        let items = plan.items, pack = plan.pack
        return Job(key: key, stage: StageName.bundle, subject: target, dependencies: items.map(\.file.producer) + used,
                   memoryCost: 2 << 20, priority: StagePriority.manifest, toleratesFailedDependencies: true,
                   caching: StageCaching.bundle(root: outputFolder)) { context in
            // A variant that failed is left out (its failure is reported where it happened).
            let present = items.filter { context.outcome(of: $0.file.producer)?.isSuccess == true }
            guard !present.isEmpty else { return WrittenBundle(pack: pack, path: relative, file: nil) }
            let writer = try BundleWriter(path: target, compressor: compressor)
            for item in present {
                try context.checkCancellation()
                let prepared = compressions[item.file.path]
                    .flatMap { context.outcome(of: $0)?.value(as: CompressedPayload.self)?.payload }
                if let prepared {
                    try writer.add(name: item.name, kind: item.kind, traits: item.traits, payload: prepared)
                } else {
                    try writer.addFile(name: item.name, kind: item.kind, traits: item.traits,
                                       path: "\(outputFolder)/\(item.file.path)")
                }
            }
            return WrittenBundle(pack: pack, path: relative, file: try writer.finish())
        }
    }

    private func publishJob(manifest: JobKey, bundles: [BundleKey: JobKey], packs: [String: Pack]) -> Job {
        let ordered = bundles.sorted { $0.key < $1.key }
        let key = Self.key(.publish, options: ["devices": selections.map(\.device.id).joined(separator: ","),
                                   "base-url": options.baseURL, "pack-limit": String(options.packLimit),
                                   // Relative: building into another folder is the same result.
                                   "manifest": manifestPath.hasPrefix(outputFolder + "/")
                                       ? String(manifestPath.dropFirst(outputFolder.count + 1)) : manifestPath],
                         inputs: [manifest.hash] + ordered.map(\.value.hash))
        let devices = selections.map(\.device), options = self.options
        let manifestPath = self.manifestPath, outputFolder = self.outputFolder
        let dependencies = [manifest] + Array(Set(ordered.map(\.value))).sorted()
        return Job(key: key, stage: StageName.publish, subject: manifestPath, dependencies: dependencies,
                   priority: StagePriority.manifest, toleratesFailedDependencies: true, keepsResult: true,
                   caching: StageCaching.publish(root: outputFolder,
                                                 manifestFile: String(manifestPath.dropFirst(outputFolder.count + 1)))) { context in
            guard var built = context.outcome(of: manifest)?.value(as: BuiltManifest.self)?.manifest else {
                throw TesseraError(.dependencyFailed, stage: StageName.publish, reason: "no manifest was built")
            }
            var entries: [BundleEntry] = []
            var warnings: Set<String> = []
            for (bundle, job) in ordered {
                guard let written = context.outcome(of: job)?.value(as: WrittenBundle.self),
                      let file = written.file else { continue }
                if file.bytes > options.packLimit {
                    warnings.insert("\(written.path) is \(ByteCount(bytes: file.bytes)), over the "
                        + "\(ByteCount(bytes: options.packLimit)) pack limit")
                }
                entries.append(BundleEntry(
                    pack: bundle.pack, device: bundle.device, url: options.baseURL + written.path, path: written.path,
                    bytes: file.bytes, uncompressedSize: file.index.entries.reduce(0) { $0 + $1.uncompressedSize },
                    sha256: file.sha256, entries: file.index.entries.map(\.name).sorted()))
            }
            let published = Set(entries.map(\.pack))
            built.deviceClasses = devices
            built.packs = packs.values.filter { published.contains($0.id) }.sorted { $0.id < $1.id }.map {
                PackEntry(id: $0.id, tags: $0.tags, category: $0.category, priority: $0.priority)
            }
            built.bundles = entries
            try context.checkCancellation()
            try ManifestWriter.write(built, to: manifestPath)
            try AppleManifests(manifest: built).write(into: outputFolder)
            return PublishedManifest(manifest: built, warnings: warnings.sorted())
        }
    }
}

/// One entry a bundle will hold.
struct BundleItem: Sendable {
    let name: String
    let kind: BundleRecord.Kind
    let traits: String
    let file: PlannedFile
}

/// One pack's contents for one device class.
struct BundlePlan: Sendable {
    let pack: String
    let device: String
    /// Sorted by name, names unique.
    let items: [BundleItem]
    /// What the bundle holds, as a hash: equal for device classes that select the same files, so
    /// they share one bundle file.
    let contentKey: ContentHash

    init(pack: String, device: String, items: [BundleItem]) {
        self.pack = pack
        self.device = device
        self.items = items
        contentKey = Self.contentKey(pack: pack, items: items)
    }

    private static func contentKey(pack: String, items: [BundleItem]) -> ContentHash {
        var hasher = StableHasher()
        hasher.combine(pack)
        hasher.combine(items.count)
        for item in items {
            hasher.combine(item.name)
            hasher.combine(Int(item.kind.rawValue))
            hasher.combine(item.traits)
            hasher.combine(item.file.path)
        }
        return hasher.finalize()
    }

    /// Sorted by name; when two items claim one name, the first in that order stays.
    static func unique(_ items: [BundleItem]) -> [BundleItem] {
        var names: Set<String> = []
        return items.sorted { ($0.name, $0.file.path) < ($1.name, $1.file.path) }.filter { names.insert($0.name).inserted }
    }
}

/// What decides whether a payload may be compressed: it is asked once per file and kind.
private struct CompressionChoice: Hashable {
    let path: String
    let kind: BundleRecord.Kind
}

struct BundleKey: Hashable, Comparable {
    let pack: String
    let device: String
    static func < (lhs: BundleKey, rhs: BundleKey) -> Bool { (lhs.pack, lhs.device) < (rhs.pack, rhs.device) }
}

/// A compress job's result: the payload compressed, or nil when storing it is better.
struct CompressedPayload: Sendable {
    let payload: PreparedPayload?
}

/// A bundle job's result; no file when every entry it was planned with failed.
struct WrittenBundle: Sendable {
    let pack: String
    let path: String
    let file: WrittenBundleFile?
}

/// The publish job's result: the manifest as published, and warnings (packs over the size limit).
struct PublishedManifest: Sendable {
    let manifest: Manifest
    let warnings: [String]
}
