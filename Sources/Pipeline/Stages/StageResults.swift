import Decoding
import Delivery
import Manifests
import TesseraCore

/// What a decode job hands on: the image and where it came from.
struct DecodedSource: Sendable {
    let path: String
    let image: DecodedImage
}

/// What an encode job hands on: the file's bytes and its pixel size.
struct EncodedVariant: Sendable {
    let bytes: [UInt8]
    let width: Int
    let height: Int
    /// Warnings from decoding the master, passed along for the build report.
    let warnings: [String]
}

/// A variant file now on disk, as the manifest lists it.
public struct WrittenVariant: Sendable {
    public let asset: AssetID
    public let entry: VariantEntry
    /// Warnings from decoding its source, for the build report.
    public let warnings: [String]
}

/// Stage priorities: later stages first, so that each asset's pipeline drains (and its decoded
/// bitmap is released) before the scheduler decodes more.
enum StagePriority {
    static let decode = 0
    static let downscale = 10
    static let encode = 20
    static let write = 30
    static let manifest = 40
}
