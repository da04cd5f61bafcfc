/// One way a device class's download could be smaller, with the bytes it would save there
/// (docs/size-report.md, "Insights").
public struct SizeInsight: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The same bytes (by SHA-256) shipped more than once to the device.
        case duplicate
        /// A PNG that Tessera's PNG encoder, at its best effort, makes smaller with every pixel kept.
        case lossless
        /// A PNG that stores an alpha channel every pixel of which is opaque.
        case opaqueAlpha = "opaque-alpha"
        /// A photograph stored as PNG that would be far smaller as JPEG.
        case jpeg
    }

    public var kind: Kind
    /// The bytes the change would save on this device.
    public var saving: Int
    /// The assets the files belong to, sorted: one, or for a duplicate every asset holding a copy.
    public var assets: [String]
    /// The files concerned, under the output folder, sorted: a duplicate's copies, else the one image.
    public var files: [String]
    /// One file's bytes as built.
    public var bytes: Int
    /// What the file would be instead: re-encoded losslessly, without its alpha channel, or as JPEG
    /// (nil for a duplicate).
    public var estimate: Int?
    /// For `jpeg`: the quality encoded at, and the PSNR against the PNG's pixels in dB.
    public var quality: Int?
    public var psnr: Double?

    public init(kind: Kind, saving: Int, assets: [String], files: [String], bytes: Int, estimate: Int? = nil,
                quality: Int? = nil, psnr: Double? = nil) {
        self.kind = kind
        self.saving = saving
        self.assets = assets
        self.files = files
        self.bytes = bytes
        self.estimate = estimate
        self.quality = quality
        self.psnr = psnr
    }

    /// One line for a reader, without the asset's name (written beside it).
    public var advice: String {
        let size = ThinningSizeReportText.size
        switch kind {
        case .duplicate:
            return "\(files.count) identical files of \(size(bytes)): "
                + (files.count == 2 ? "the extra copy adds " : "the \(files.count - 1) extra copies add ") + size(saving)
        case .lossless:
            return "\(size(bytes)) PNG re-encodes losslessly to \(size(estimate ?? bytes)) (−\(percent(saving, of: bytes)))"
        case .opaqueAlpha:
            return "\(size(bytes)) PNG stores an alpha channel but every pixel is opaque; the channel costs \(size(saving))"
        case .jpeg:
            let psnr = psnr.map { String(($0 * 10).rounded() / 10) } ?? "?"
            return "\(size(bytes)) PNG photograph is \(size(estimate ?? bytes)) as JPEG at quality \(quality ?? 0) "
                + "(−\(percent(saving, of: bytes)), PSNR \(psnr) dB)"
        }
    }

    private func percent(_ part: Int, of whole: Int) -> String {
        whole > 0 ? "\(Int((Double(part) * 100 / Double(whole)).rounded()))%" : "0%"
    }
}
