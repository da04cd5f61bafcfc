import TesseraCore

/// Resizes a bitmap held in memory: the band downscaler fed from the bitmap's rows, so whole
/// images and streams go through one implementation.
public struct Resampler: Sendable {
    public var filter: ResamplingFilter
    public var linearLight: Bool

    public init(filter: ResamplingFilter = .lanczos3, linearLight: Bool = false) {
        self.filter = filter
        self.linearLight = linearLight
    }

    /// `bitmap` resized to `width`×`height` (RGBA8), with the source's alpha convention. Large
    /// reductions are box-averaged first as `ShrinkPlan` describes.
    public func resize(_ bitmap: Bitmap, width: Int, height: Int) throws(TesseraError) -> Bitmap {
        guard width > 0, height > 0 else {
            throw TesseraError(.invalidInput, origin: .downscale, reason: "target size \(width)×\(height) is empty")
        }
        guard bitmap.format == .rgba8 else {
            throw TesseraError(.internalFailure, origin: .downscale, reason: "resampling expects RGBA8, got \(bitmap.format)")
        }
        let plan = ShrinkPlan.plan(sourceWidth: bitmap.width, sourceHeight: bitmap.height, targetWidth: width,
                                   targetHeight: height)
        let geometry = BandDownscaler.Geometry(outputWidth: width, outputHeight: height,
                                               logicalWidth: Double(bitmap.width), logicalHeight: Double(bitmap.height),
                                               boxX: filter == .box ? 1 : plan.boxX, boxY: filter == .box ? 1 : plan.boxY)
        return try BandDownscaler(filter: filter, linearLight: linearLight)
            .downscale(try BitmapRowSource(bitmap), geometry: geometry)
    }
}
