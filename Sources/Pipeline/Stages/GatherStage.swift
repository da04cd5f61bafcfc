import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Gathers every written variant, ready bitmap, timing and carried file into the build's
/// `Manifest`, which the slice and manifest stages read (the manifest stage writes it).
///
/// It tolerates failed inputs: a build with a bad asset still gets a manifest of everything that
/// was made, and the failures go to the build report.
struct GatherStage: Stage {
    struct Input: Encodable, Sendable {
        var variants: [Upstream<WrittenVariant>]
        var bitmaps: [Upstream<WrittenBitmap>]
        var timings: [Upstream<AssetAnimation>]
        var data: [Upstream<CarriedData>]
        /// PDF and SVG files carried beside their renders, one per asset at most.
        var vectors: [Upstream<WrittenVariant>] = []
        /// What stays in the app, copied as it is.
        var app: [Upstream<CarriedData>] = []
        /// Image sets that stay in the app, written for Xcode.
        var appSets: [Upstream<AppCatalogSet>] = []
    }
    typealias Output = BuiltManifest
    static let kind = JobKind.gather
    static let version = 6
    static let priority = StagePriority.manifest
    static let toleratesFailedInputs = true
    let options: Options
    /// The manifest's path, for messages: the manifest stage writes it.
    let path: String

    /// By asset name, so that the options encode in one order.
    struct Options: Codable, Hashable, Sendable {
        let pipelineName: String
        /// On-demand resource tags by asset (variant group).
        let tags: [String: [String]]
        /// How each group is drawn, for groups whose catalog says so.
        let presentation: [String: AssetPresentation]
        /// Groups from single-scale sets: their copied file is drawn at any scale.
        let anyScale: [String]
    }

    init(pipelineName: String, path: String, tags: [AssetID: [String]], presentation: [AssetID: AssetPresentation] = [:],
         anyScale: Set<AssetID> = []) {
        options = Options(pipelineName: pipelineName,
                          tags: Dictionary(uniqueKeysWithValues: tags.map { ($0.key.name, $0.value) }),
                          presentation: Dictionary(uniqueKeysWithValues: presentation.map { ($0.key.name, $0.value) }),
                          anyScale: anyScale.map(\.name).sorted())
        self.path = path
    }

    func subject(of input: Input) -> String { path }
    func cacheRoot(for input: Input) -> String? { "." }

    func run(_ input: Input, context: JobContext) throws -> BuiltManifest {
        var ready: [AssetID: [DisplayScale: ReadyBitmapEntry]] = [:]
        for bitmap in input.bitmaps {
            guard let made = bitmap.made(in: context) else { continue }
            ready[made.asset, default: [:]][made.scale] = made.entry
        }
        let anyScale = Set(options.anyScale)
        let animations = Self.animations(input.timings, context: context), kept = Self.keptVectors(input.vectors, context: context)
        // Each asset's entry made when its first variant is met and its variants appended in
        // place, then sorted as `AssetEntry.init` sorts them (both sorts are stable): a dictionary
        // of variant lists, then each list sorted into a copy, was most of the gather's memory at
        // 100,000 sets (issue 54, item 14).
        var places: [AssetID: Int] = [:]
        var assets: [AssetEntry] = []
        // Room for one entry per run of one asset's variants (an asset's are planned together):
        // grown by doubling, the list kept room for a third more assets than it held.
        var previous: AssetID?
        assets.reserveCapacity(input.variants.reduce(0) { count, variant in
            guard let asset = variant.made(in: context)?.asset, asset != previous else { return count }
            previous = asset
            return count + 1
        })
        var warnings: Set<SourceWarning> = []
        for (index, variant) in input.variants.enumerated() {
            guard let written = variant.made(in: context) else { continue }
            var entry = written.entry
            entry.readyBitmap = ready[written.asset]?[entry.scale]
            // A single-scale set's own file (not a render or downscale of it) serves every scale.
            if anyScale.contains(written.asset.name), !entry.generated { entry.anyScale = true }
            if let place = places[written.asset] {
                assets[place].variants.append(entry)
            } else {
                places[written.asset] = assets.count
                let presentation = options.presentation[written.asset.name]
                // Room for the asset's variants that follow this one (an asset's are planned
                // together): grown one append at a time, each list was reallocated twice and
                // kept room for four entries where three were (issue 54, item 14).
                var variants: [VariantEntry] = []
                variants.reserveCapacity(1 + input.variants[(index + 1)...].prefix { $0.made(in: context)?.asset == written.asset }.count)
                variants.append(entry)
                var asset = AssetEntry(name: written.asset, variants: variants, animation: animations[written.asset],
                                       tags: options.tags[written.asset.name] ?? [], renderingIntent: presentation?.renderingIntent,
                                       preservesVectorRepresentation: presentation?.preservesVectorRepresentation ?? false,
                                       resizing: presentation?.resizing)
                asset.vector = kept[written.asset]
                assets.append(asset)
            }
            for note in written.warnings { warnings.insert(SourceWarning(source: written.entry.source, note: note)) }
        }
        places = [:]
        for index in assets.indices { assets[index].variants.sort { $0.scale < $1.scale } }
        let carried = input.data.compactMap { $0.made(in: context)?.entry }
        // What stays in the app, in one list sized once, then sorted and thinned in place: the
        // list of kept copies, the sets' lists, their concatenation, its sorted copy and the
        // filtered one were several lists of 200,000 entries at once at 100,000 tiny masters, at
        // the build's peak (issue 54, item 14). The same order as that sort and filter made.
        var app: [DataEntry] = []
        app.reserveCapacity(input.app.count + input.appSets.reduce(0) { $0 + ($1.made(in: context)?.entries.count ?? 0) })
        for kept in input.app { if let entry = kept.made(in: context)?.entry { app.append(entry) } }
        for set in input.appSets { app += set.made(in: context)?.entries ?? [] }
        // Sorted in place, as `Manifest.init` sorts them (the same stable sort, the same order),
        // and handed over whole: `Manifest.init` sorting into a copy held both lists at once, at
        // the build's peak (the gather runs last, beside the slices; issue 54, item 14).
        assets.sort { $0.name < $1.name }
        var manifest = Manifest(pipeline: options.pipelineName, assets: [], data: carried)
        manifest.assets = assets
        assets = []
        // A group's or the catalog's Contents.json is copied for every set under it: listed once,
        // under the first such set by name.
        var listed: Set<String> = []
        app.sort { ($0.path, $0.name) < ($1.path, $1.name) }
        var first = 0
        for index in app.indices where listed.insert(app[index].path).inserted {
            app.swapAt(first, index)
            first += 1
        }
        app.removeLast(app.count - first)
        if !app.isEmpty { manifest.app = app }
        return BuiltManifest(manifest: manifest, warnings: warnings.sorted())
    }

    /// Each animated asset's timing, by asset.
    private static func animations(_ timings: [Upstream<AssetAnimation>], context: JobContext) -> [AssetID: AnimationEntry] {
        var animations: [AssetID: AnimationEntry] = [:]
        for timing in timings {
            guard let made = timing.made(in: context) else { continue }
            animations[made.asset] = made.entry
        }
        return animations
    }

    /// Each asset's carried vector file (a preserved vector representation), by asset.
    private static func keptVectors(_ vectors: [Upstream<WrittenVariant>], context: JobContext) -> [AssetID: VectorFileEntry] {
        var kept: [AssetID: VectorFileEntry] = [:]
        for vector in vectors {
            guard let written = vector.made(in: context) else { continue }
            let entry = written.entry
            kept[written.asset] = VectorFileEntry(path: entry.path, format: entry.format, bytes: entry.bytes,
                                                  sha256: entry.sha256, source: entry.source)
        }
        return kept
    }
}

/// A warning about one source file (relative to the input folder), with the stage that raised it.
struct SourceWarning: Sendable, Codable, Hashable, Comparable {
    let source: String
    let note: StageNote

    static func < (lhs: SourceWarning, rhs: SourceWarning) -> Bool {
        (lhs.source, lhs.note.text, lhs.note.stage) < (rhs.source, rhs.note.text, rhs.note.stage)
    }
}

/// The manifest job's result: everything the build made, and the warnings its variants carried.
struct BuiltManifest: CachedOutput {
    let manifest: Manifest
    let warnings: [SourceWarning]

    /// The manifest stage writes the manifest: this job leaves no file.
    var files: [String] { [] }
}
