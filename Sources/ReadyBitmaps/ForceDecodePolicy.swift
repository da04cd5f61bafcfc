import TesseraCore

/// Which assets get a ready-to-draw bitmap, the build-time version of SDWebImage's `shouldDecode`:
///
/// - an asset is decompressed when it matches one of `include` (globs over asset names, `*` within
///   a path segment, `**` across segments), or when `all` is set;
/// - animated images are not decompressed unless `includeAnimated` is set: their frames are
///   decoded as they play, and a bitmap of the first frame is only useful as a placeholder;
/// - an image whose decoded size (width × height × 4) exceeds `maxDecodedBytes` is downscaled
///   first, keeping its aspect ratio, to the largest size within the budget (each side scaled by
///   √(budget / size), never below 1 pixel), as SDWebImage scales down large images.
public struct ForceDecodePolicy: Sendable, Encodable {
    public var include: [String]
    public var all: Bool
    public var includeAnimated: Bool
    public var maxDecodedBytes: Int?

    public init(include: [String] = [], all: Bool = false, includeAnimated: Bool = false,
                maxDecodedBytes: Int? = nil) {
        self.include = include
        self.all = all
        self.includeAnimated = includeAnimated
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// Whether `asset` gets a ready bitmap.
    public func shouldDecode(asset: AssetID, animated: Bool) -> Bool {
        if animated && !includeAnimated { return false }
        return all || include.contains { Glob($0).matches(asset.name) }
    }

    /// The size to write a `width`×`height` image at under the byte budget.
    public func targetSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let budget = maxDecodedBytes, width * height * 4 > budget else { return (width, height) }
        let factor = (Double(budget) / Double(width * height * 4)).squareRoot()
        var size = (width: max(1, Int(Double(width) * factor)), height: max(1, Int(Double(height) * factor)))
        // Flooring both sides keeps the result within budget except in the 1-pixel clamp.
        while size.width * size.height * 4 > budget, size.width > 1 || size.height > 1 {
            if size.width >= size.height { size.width -= 1 } else { size.height -= 1 }
        }
        return size
    }
}
