import Delivery
import Downscaling
import JobEngine
import Manifests
import ReadyBitmaps
import Slicing
import TesseraCore

/// Makes force-decompress jobs: an upright variant bitmap → a ready-to-draw `.bitmap` file beside it.
struct DecompressStage: Stage {
    struct Input: Encodable, Sendable {
        /// The variant's upright pixels.
        let image: Upstream<DecodedSource>
        let asset: AssetID
        let scale: DisplayScale
        /// Relative to the output folder.
        let path: String
        @Unkeyed var estimatedBytes: Int
    }
    typealias Output = WrittenBitmap
    static let kind = JobKind.decompress
    static let version = 1
    static let priority = StagePriority.write
    let options: Options
    let outputFolder: String

    struct Options: Codable, Hashable, Sendable {
        let layout: ReadyPixelLayout
        /// A larger bitmap is downscaled to fit (`ForceDecodePolicy.maxDecodedBytes`).
        let maxDecodedBytes: Int?
    }

    init(options: DecompressStageOptions, outputFolder: String) {
        self.options = Options(layout: options.layout, maxDecodedBytes: options.policy.maxDecodedBytes)
        self.outputFolder = outputFolder
    }

    /// Where a variant's ready bitmap goes, relative to the output folder.
    static func relativePath(of variant: PlannedVariant) -> String {
        "variants/\(variant.asset.name)\(FileNameTraits.suffix(for: variant.scale)).bitmap"
    }

    func job(image: Upstream<DecodedSource>, variant: PlannedVariant, estimatedBytes: Int) -> Job<WrittenBitmap> {
        job(Input(image: image, asset: variant.asset, scale: variant.scale, path: Self.relativePath(of: variant),
                  estimatedBytes: estimatedBytes))
    }

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.path, under: outputFolder) }
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: input.estimatedBytes * 3) }
    func cacheRoot(for input: Input) -> String? { outputFolder }
    func cachedFiles(for input: Input) -> [String]? { [input.path] }

    func run(_ input: Input, context: JobContext) throws -> WrittenBitmap {
        let source = try input.image.value(in: context).image
        var bitmap = source.bitmap
        let size = ForceDecodePolicy(maxDecodedBytes: options.maxDecodedBytes).targetSize(width: bitmap.width, height: bitmap.height)
        if size != (bitmap.width, bitmap.height) {
            bitmap = try Resampler(filter: .lanczos3).resize(bitmap, width: size.width, height: size.height)
        }
        try context.checkCancellation()
        let bytes = try ReadyBitmapWriter(layout: options.layout).encode(
            bitmap, appliedOrientation: source.orientationApplied ? source.info.orientation : .up)
        try AtomicFile.write(bytes, to: subject(of: input), flushing: false)
        return WrittenBitmap(asset: input.asset, scale: input.scale, entry: ReadyBitmapEntry(
            path: input.path, layout: options.layout.rawValue, width: bitmap.width, height: bitmap.height,
            bytes: bytes.count, sha256: ContentHash.of(bytes)))
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
