import Delivery
import Downscaling
import JobEngine
import Manifests
import ReadyBitmaps
import Slicing
import TesseraCore

/// Makes force-decompress jobs: an upright variant bitmap → a ready-to-draw `.bitmap` file beside it.
struct DecompressStage: Stage {
    typealias Output = WrittenBitmap
    static let name = StageName.decompress
    static let version = 1
    let options: DecompressStageOptions
    let outputFolder: String

    /// Where a variant's ready bitmap goes, relative to the output folder.
    static func relativePath(of variant: PlannedVariant) -> String {
        "variants/\(variant.asset.name)\(FileNameTraits.suffix(for: variant.scale)).bitmap"
    }

    /// `image` gives the variant's upright pixels.
    func job(image: PixelSource, variant: PlannedVariant, estimatedBytes: Int) -> Job<WrittenBitmap> {
        let relative = Self.relativePath(of: variant)
        let target = "\(outputFolder)/\(relative)"
        var keyOptions = ["path": relative, "layout": options.layout.rawValue]
        if let budget = options.policy.maxDecodedBytes { keyOptions["max-bytes"] = String(budget) }
        keyOptions["scale"] = variant.scale.description
        let key = Self.key(options: keyOptions, inputs: [image.key.hash])
        let policy = options.policy, layout = options.layout
        return job(key: key, subject: target, dependencies: [image.key], memoryCost: estimatedBytes * 3,
                   priority: StagePriority.write) { context in
            let source = try image.resolve(context).image
            var bitmap = source.bitmap
            let size = policy.targetSize(width: bitmap.width, height: bitmap.height)
            if size != (bitmap.width, bitmap.height) {
                bitmap = try Resampler(filter: .lanczos3).resize(bitmap, width: size.width, height: size.height)
            }
            try context.checkCancellation()
            let bytes = try ReadyBitmapWriter(layout: layout).encode(
                bitmap, appliedOrientation: source.orientationApplied ? source.info.orientation : .up)
            try AtomicFile.write(bytes, to: target, flushing: false)
            return WrittenBitmap(asset: variant.asset, scale: variant.scale, entry: ReadyBitmapEntry(
                path: relative, layout: layout.rawValue, width: bitmap.width, height: bitmap.height,
                bytes: bytes.count, sha256: ContentHash.of(bytes)))
        }
        .cached(under: outputFolder)
    }
}

/// A ready bitmap now on disk, to be attached to its variant in the manifest.
struct WrittenBitmap: CachedOutput {
    let asset: AssetID
    let scale: DisplayScale
    let entry: ReadyBitmapEntry

    var files: [String] { [entry.path] }
    var knownHashes: [String: ContentHash] { [entry.path: entry.sha256] }
}
