import Delivery
import JobEngine
import Slicing
import TesseraCore

/// What the manifest lists of a variant besides its file's facts: declared in the input of the
/// job that writes the file, so every name the entry carries is in that job's key.
struct VariantListing: Sendable, Encodable {
    let asset: AssetID
    let scale: DisplayScale
    /// Relative to the output folder.
    let path: String
    let format: ImageFormat
    /// The source file, relative to the input folder.
    let source: String

    init(_ variant: PlannedVariant) {
        asset = variant.asset
        scale = variant.scale
        path = variant.outputPath
        format = variant.format
        source = variant.source.relativePath
    }

    /// The written file as the manifest lists it; `format` is the listed one unless the file's
    /// own content said otherwise (a copied file).
    func written(format: ImageFormat? = nil, width: Int, height: Int, bytes: Int, sha256: ContentHash,
                 generated: Bool, warnings: [StageNote]) -> WrittenVariant {
        WrittenVariant(asset: asset, entry: VariantEntry(
            scale: scale, path: path, format: format ?? self.format, width: width, height: height, bytes: bytes,
            sha256: sha256, generated: generated, source: source), warnings: warnings)
    }
}
