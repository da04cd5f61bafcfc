import Delivery
import Foundation
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// Makes the job that gathers every written variant into `manifest.json`.
///
/// It tolerates failed inputs: a build with a bad asset still gets a manifest of everything that
/// was made, and the failures go to the build report.
struct ManifestStage: BuildStage {
    static let version = 2
    let pipelineName: String
    let outputFolder: String
    /// The manifest's file, relative to the output folder.
    let file: String
    /// On-demand resource tags by asset (variant group).
    let tags: [AssetID: [String]]
    /// How each group is drawn, for groups whose catalog says so.
    var presentation: [AssetID: AssetPresentation] = [:]
    /// False when a later stage publishes the manifest file.
    var writes = true

    func job(variants: [JobKey], bitmaps: [JobKey], timings: [JobKey], data: [JobKey] = []) -> Job {
        // The key names the file, not the output folder: the same build into another folder is the same result.
        let key = Self.key(.manifest, options: ["path": file, "pipeline": pipelineName],
                         inputs: (variants + bitmaps + timings + data).map(\.hash))
        let pipelineName = self.pipelineName, path = "\(outputFolder)/\(file)", tags = self.tags, writes = self.writes
        let outputFolder = self.outputFolder
        let presentation = self.presentation
        return Job(key: key, stage: StageName.manifest, subject: path, dependencies: variants + bitmaps + timings + data,
                   priority: StagePriority.manifest, toleratesFailedDependencies: true, keepsResult: true) { context in
            var ready: [AssetID: [DisplayScale: ReadyBitmapEntry]] = [:]
            for bitmap in bitmaps {
                guard let made = context.outcome(of: bitmap)?.value(as: WrittenBitmap.self) else { continue }
                ready[made.asset, default: [:]][made.scale] = made.entry
            }
            var byAsset: [AssetID: [VariantEntry]] = [:]
            var warnings: Set<SourceWarning> = []
            for variant in variants {
                guard let written = context.outcome(of: variant)?.value(as: WrittenVariant.self) else { continue }
                var entry = written.entry
                entry.readyBitmap = ready[written.asset]?[entry.scale]
                byAsset[written.asset, default: []].append(entry)
                for warning in written.warnings { warnings.insert(SourceWarning(source: written.entry.source, text: warning)) }
            }
            var animations: [AssetID: AnimationEntry] = [:]
            for timing in timings {
                guard let made = context.outcome(of: timing)?.value(as: AssetAnimation.self) else { continue }
                animations[made.asset] = made.entry
            }
            let carried = data.compactMap { context.outcome(of: $0)?.value(as: DataEntry.self) }
            let manifest = Manifest(pipeline: pipelineName, assets: byAsset.map {
                AssetEntry(name: $0.key, variants: $0.value, animation: animations[$0.key], tags: tags[$0.key] ?? [],
                           renderingIntent: presentation[$0.key]?.renderingIntent,
                           preservesVectorRepresentation: presentation[$0.key]?.preservesVectorRepresentation ?? false)
            }, data: carried)
            try context.checkCancellation()
            // Variant, bitmap and data files are renamed into place unflushed: one flush of the
            // output's file system makes them all durable before the manifest naming them appears.
            // (No folder yet: nothing was written to flush.)
            if FileManager.default.fileExists(atPath: outputFolder), !FileSystemFlush.flush(containing: outputFolder) {
                throw TesseraError(.io, file: outputFolder, stage: StageName.manifest,
                                   reason: "could not flush the written files to disk")
            }
            if writes { try ManifestWriter.write(manifest, to: path) }
            return BuiltManifest(manifest: manifest, warnings: warnings.sorted { ($0.source, $0.text) < ($1.source, $1.text) })
        }
    }
}

/// A decode warning about one source file (relative to the input folder).
struct SourceWarning: Sendable, Hashable {
    let source: String
    let text: String
}

/// The manifest job's result: the manifest written, and the warnings its variants carried.
///
/// Restored from the build cache, the manifest stays encoded until a job asks for it: in a
/// rebuild where the jobs that read it (publish, slice) are hits as well, only the warnings are
/// wanted, and decoding a manifest of thousands of variants was a seventh of a no-op run.
struct BuiltManifest: Sendable {
    let warnings: [SourceWarning]
    private let content: Content

    private enum Content: Sendable {
        case decoded(Manifest)
        case encoded([UInt8])
    }

    init(manifest: Manifest, warnings: [SourceWarning]) {
        content = .decoded(manifest)
        self.warnings = warnings
    }

    /// A manifest as `ManifestWriter` encodes it, decoded on first use.
    init(encodedManifest: [UInt8], warnings: [SourceWarning]) {
        content = .encoded(encodedManifest)
        self.warnings = warnings
    }

    /// The manifest; nil when cached bytes do not decode (the entry's hash matched, so only a
    /// Tessera that wrote another format could cause it).
    var manifest: Manifest? {
        switch content {
        case .decoded(let manifest): manifest
        case .encoded(let bytes): try? Manifest.decode(Data(bytes), source: "the build cache")
        }
    }
}
