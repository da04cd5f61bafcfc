import TesseraCore

/// Limits and hooks that apply to every decode.
public struct DecodeOptions: Sendable {
    /// The default pixel limit: 16384 × 16384.
    public static let defaultMaxPixels = 268_435_456

    /// Images with more pixels than this are refused before any pixel memory is allocated.
    public var maxPixels: Int
    /// Whether whole-image decodes turn the image upright by its EXIF orientation (row streams
    /// never do: the downscaler applies orientation to the small image instead).
    public var appliesOrientation: Bool
    /// Called between bands of rows, so a long decode can stop when the run is cancelled.
    public var checkpoint: @Sendable () throws(TesseraError) -> Void
    /// Whether GIF images without a delay are frames of their own or drawn with the next one.
    public var subImages: SubImagePolicy

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, appliesOrientation: Bool = true,
                subImages: SubImagePolicy = .merge,
                checkpoint: @escaping @Sendable () throws(TesseraError) -> Void = {}) {
        self.maxPixels = maxPixels
        self.appliesOrientation = appliesOrientation
        self.subImages = subImages
        self.checkpoint = checkpoint
    }

    /// Throws when `info` exceeds the pixel limit or is empty: call before allocating anything.
    public func checkLimits(_ info: ImageInfo, path: String) throws(TesseraError) {
        try check(info, path: path)
    }

    /// Throws when `info` exceeds the limit.
    func check(_ info: ImageInfo, path: String) throws(TesseraError) {
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        if overflow || pixels > maxPixels {
            throw TesseraError(.limitExceeded, file: path, origin: .decode,
                               reason: "\(info.format.displayName) is \(info.width)×\(info.height) = \(pixels) pixels, over the limit of \(maxPixels) (--max-pixels)")
        }
        if info.width == 0 || info.height == 0 {
            throw TesseraError(.invalidInput, file: path, origin: .decode,
                               reason: "\(info.format.displayName): the image is \(info.width)×\(info.height); it has zero width or height")
        }
    }
}

/// A decoded still image and what was learned while decoding it.
public struct DecodedImage: Sendable {
    /// The pixels; upright when `orientationApplied`.
    public var bitmap: Bitmap
    public var info: ImageInfo
    /// Whether `bitmap` has had `info.orientation` applied.
    public var orientationApplied = false
    /// Non-fatal problems the codec reported (extraneous bytes, a bad ancillary chunk CRC).
    public var warnings: [String]

    public init(bitmap: Bitmap, info: ImageInfo, orientationApplied: Bool = false, warnings: [String]) {
        self.bitmap = bitmap
        self.info = info
        self.orientationApplied = orientationApplied
        self.warnings = warnings
    }
}
