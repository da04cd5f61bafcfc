/// What re-encoding one built image with Tessera's own encoders showed. The report decodes
/// nothing itself: the caller, which links the codecs, measures (`ImageSavingsMeasurer` in the
/// pipeline module), once per distinct file content.
public struct ImageMeasurement: Sendable, Equatable {
    /// The file's bytes as built.
    public var bytes: Int
    /// The same pixels through Tessera's PNG encoder at its best lossless effort; nil when that
    /// would lose bits (a 16-bit PNG: Tessera's encoder writes 8 bits).
    public var losslessBytes: Int?
    /// Set when the file stores an alpha channel and every pixel is opaque: what the channel
    /// costs, the same encoder's bytes (at one effort) with the channel kept less without.
    public var opaqueAlphaCost: Int?
    /// Set when the image looks like a photograph (`PhotoRule`): Tessera's JPEG encoder at the
    /// pipeline's quality.
    public var jpeg: JPEGEstimate?

    public init(bytes: Int, losslessBytes: Int?, opaqueAlphaCost: Int? = nil, jpeg: JPEGEstimate? = nil) {
        self.bytes = bytes
        self.losslessBytes = losslessBytes
        self.opaqueAlphaCost = opaqueAlphaCost
        self.jpeg = jpeg
    }
}

/// A photograph-like PNG encoded as JPEG: its bytes, and how close it stays to the PNG's pixels.
public struct JPEGEstimate: Sendable, Equatable {
    public var bytes: Int
    public var quality: Int
    /// Peak signal-to-noise ratio of the decoded JPEG against the PNG's pixels, over R, G and B,
    /// in dB (higher is closer; 99 for identical pixels).
    public var psnr: Double

    public init(bytes: Int, quality: Int, psnr: Double) {
        self.bytes = bytes
        self.quality = quality
        self.psnr = psnr
    }
}

/// Measures built image files for the report's insights (docs/size-report.md, "Insights").
public protocol ImageSavingsMeasuring: Sendable {
    /// The PNG file at `path` re-encoded; nil when it cannot be read or decoded (the report then
    /// gives it no image insight).
    func measure(file path: String) -> ImageMeasurement?
}
