import Delivery
import Downscaling
import JobEngine
import Manifests
import ReadyBitmaps
import Slicing
import TesseraCore

/// Makes force-decompress jobs: an upright variant bitmap → a ready-to-draw `.bitmap` file beside it.
struct DecompressStage: BuildStage {
    static let version = 1
    let options: DecompressStageOptions
    let outputFolder: String

    /// `image` gives the variant's upright pixels.
    /// Where a variant's ready bitmap goes, relative to the output folder.
    static func relativePath(of variant: PlannedVariant) -> String {
        "variants/\(variant.asset.name)\(FileNameTraits.suffix(for: variant.scale)).bitmap"
    }

    func job(image: PixelSource, variant: PlannedVariant, estimatedBytes: Int) -> Job {
        let relative = Self.relativePath(of: variant)
        let target = "\(outputFolder)/\(relative)"
        var keyOptions = ["path": relative, "layout": options.layout.rawValue]
        if let budget = options.policy.maxDecodedBytes { keyOptions["max-bytes"] = String(budget) }
        keyOptions["scale"] = variant.scale.description
        let key = Self.key(.decompress, options: keyOptions, inputs: [image.key.hash])
        let policy = options.policy, layout = options.layout
        return Job(key: key, stage: StageName.decompress, subject: target, dependencies: [image.key],
                   memoryCost: estimatedBytes * 3, priority: StagePriority.write,
                   caching: StageCaching.bitmap(root: outputFolder)) { context in
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
    }
}

/// A ready bitmap now on disk, to be attached to its variant in the manifest.
struct WrittenBitmap: Sendable {
    let asset: AssetID
    let scale: DisplayScale
    let entry: ReadyBitmapEntry
}
