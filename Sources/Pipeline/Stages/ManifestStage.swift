import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Gathers every written variant, ready bitmap, timing and carried file into the build's
/// `Manifest`, which the slice and publish stages read (the publish stage writes it).
///
/// It tolerates failed inputs: a build with a bad asset still gets a manifest of everything that
/// was made, and the failures go to the build report.
struct ManifestStage: Stage {
    typealias Output = BuiltManifest
    static let name = StageName.manifest
    static let version = 5
    let pipelineName: String
    /// The manifest's path, for messages: the publish stage writes it.
    let path: String
    /// On-demand resource tags by asset (variant group).
    let tags: [AssetID: [String]]
    /// How each group is drawn, for groups whose catalog says so.
    var presentation: [AssetID: AssetPresentation] = [:]
    /// Groups from single-scale sets: their copied file is drawn at any scale.
    var anyScale: Set<AssetID> = []

    /// `vectors`: PDF and SVG files carried beside their renders, one per asset at most.
    func job(variants: [JobRef<WrittenVariant>], bitmaps: [JobRef<WrittenBitmap>], timings: [JobRef<AssetAnimation>],
             data: [JobRef<CarriedData>], vectors: [JobRef<WrittenVariant>] = [],
             app: [JobRef<CarriedData>] = []) -> Job<BuiltManifest> {
        let inputs = variants.map(\.key) + bitmaps.map(\.key) + timings.map(\.key) + data.map(\.key) + vectors.map(\.key)
            + app.map(\.key)
        let key = Self.key(options: ["pipeline": pipelineName], inputs: inputs.map(\.hash))
        let pipelineName = self.pipelineName, tags = self.tags, presentation = self.presentation
        let anyScale = self.anyScale
        return job(key: key, subject: path, dependencies: inputs, priority: StagePriority.manifest,
                   toleratesFailedDependencies: true) { context in
            var ready: [AssetID: [DisplayScale: ReadyBitmapEntry]] = [:]
            for bitmap in bitmaps {
                guard let made = context.result(of: bitmap) else { continue }
                ready[made.asset, default: [:]][made.scale] = made.entry
            }
            var byAsset: [AssetID: [VariantEntry]] = [:]
            var warnings: Set<SourceWarning> = []
            for variant in variants {
                guard let written = context.result(of: variant) else { continue }
                var entry = written.entry
                entry.readyBitmap = ready[written.asset]?[entry.scale]
                // A single-scale set's own file (not a render or downscale of it) serves every scale.
                if anyScale.contains(written.asset), !entry.generated { entry.anyScale = true }
                byAsset[written.asset, default: []].append(entry)
                for note in written.warnings { warnings.insert(SourceWarning(source: written.entry.source, note: note)) }
            }
            let animations = Self.animations(timings, context: context), kept = Self.keptVectors(vectors, context: context)
            let carried = data.compactMap { context.result(of: $0)?.entry }
            let keptInApp = app.compactMap { context.result(of: $0)?.entry }
            var manifest = Manifest(pipeline: pipelineName, assets: byAsset.map {
                var asset = AssetEntry(name: $0.key, variants: $0.value, animation: animations[$0.key],
                                       tags: tags[$0.key] ?? [], renderingIntent: presentation[$0.key]?.renderingIntent,
                                       preservesVectorRepresentation: presentation[$0.key]?.preservesVectorRepresentation ?? false)
                asset.vector = kept[$0.key]
                return asset
            }, data: carried)
            // A group's or the catalog's Contents.json is copied for every set under it: listed once,
            // under the first such set by name.
            var listed: Set<String> = []
            let app = keptInApp.sorted { ($0.path, $0.name) < ($1.path, $1.name) }.filter { listed.insert($0.path).inserted }
            if !app.isEmpty { manifest.app = app }
            return BuiltManifest(manifest: manifest, warnings: warnings.sorted())
        }
        .cached(under: ".")
    }

    /// Each animated asset's timing, by asset.
    private static func animations(_ timings: [JobRef<AssetAnimation>], context: JobContext) -> [AssetID: AnimationEntry] {
        var animations: [AssetID: AnimationEntry] = [:]
        for timing in timings {
            guard let made = context.result(of: timing) else { continue }
            animations[made.asset] = made.entry
        }
        return animations
    }

    /// Each asset's carried vector file (a preserved vector representation), by asset.
    private static func keptVectors(_ vectors: [JobRef<WrittenVariant>], context: JobContext) -> [AssetID: VectorFileEntry] {
        var kept: [AssetID: VectorFileEntry] = [:]
        for vector in vectors {
            guard let written = context.result(of: vector) else { continue }
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

    /// The publish stage writes the manifest: this job leaves no file.
    var files: [String] { [] }
}
