import Decoding
import Downscaling
import TesseraCore

/// Decodes an image once and downscales it to one or more sizes within a memory budget, the
/// libvips way: shrink-on-load in the decoder (JPEG DCT scaling, WebP's scaled decode), box
/// pre-shrink, then the final filter on premultiplied pixels, band by band. The file is opened
/// through `ImageSource`: PNG (non-interlaced), JPEG and still WebP are streamed; other files are
/// decoded whole first. EXIF orientation is applied to the small results, never to the large source.
public enum StreamingDownscale {
    /// What one run produced.
    public struct Result: Sendable {
        public let info: ImageInfo
        /// One upright image per requested size, in order; nil for a size whose rows went to a sink.
        public let images: [DecodedImage?]
        /// What decoding the whole file warned about (every image carries them too).
        public var warnings: [String] = []
    }

    /// The band buffers' working memory when none is given: the pipeline's `downscale:
    /// memory-budget` and `tessera downscale --memory-budget` default to it.
    public static let defaultMemoryBudget = 64 << 20

    /// `sizes` gives, from the file's header, the upright output sizes wanted. `sinks` may give,
    /// for each of those sizes, a sink that takes its rows as they are made (an encoder), given
    /// the rows' alpha convention; it is asked only when the file needs no turning upright, since
    /// rows cannot be turned one at a time.
    public static func run(fileAt path: String, options: DecodeOptions = DecodeOptions(),
                           filter: ResamplingFilter = .lanczos3, linearLight: Bool = false,
                           memoryBudget: Int = defaultMemoryBudget,
                           sizes: (ImageInfo) throws(TesseraError) -> [(width: Int, height: Int)],
                           sinks: (ImageInfo, AlphaMode, [(width: Int, height: Int)]) throws(TesseraError)
                               -> [(any ImageRowSink)?] = { _, _, sizes in sizes.map { _ in nil } })
        throws(TesseraError) -> Result {
        let source = try ImageSource(fileAt: path)
        let header = try source.header.get()
        let (decoder, info) = (header.decoder, header.info)
        try options.checkLimits(info, path: path)
        let upright = try sizes(info)
        guard !upright.isEmpty else { return Result(info: info, images: []) }
        // Work in stored orientation; turn the small results upright at the end.
        let stored = upright.map { info.orientation.swapsDimensions ? ($0.height, $0.width) : ($0.width, $0.height) }
        let largest = stored.max { $0.0 * $0.1 < $1.0 * $1.1 }!
        let rows: any RowSource
        var logical = (width: Double(info.width), height: Double(info.height))
        var warnings: [String] = []
        // The file, when it is read into memory rather than streamed.
        var heldBytes = 0
        if let streamable = source.rowStreamer {
            if info.format == .webp {
                // libwebp scales to whole sizes: those are the logical sizes too.
                let factor = webpShrink(width: info.width, height: info.height, target: largest) ?? 1
                rows = try streamable.openRows(fileAt: path, scaleDenominator: factor, options: options)
                logical = (Double(rows.width), Double(rows.height))
            } else {
                let plan = ShrinkPlan.plan(sourceWidth: info.width, sourceHeight: info.height, targetWidth: largest.0,
                                           targetHeight: largest.1, denominators: info.format == .jpeg ? [1, 2, 4, 8] : [1])
                rows = try streamable.openRows(fileAt: path, scaleDenominator: plan.decodeDenominator, options: options)
                logical = (logical.width / Double(plan.decodeDenominator), logical.height / Double(plan.decodeDenominator))
            }
        } else {
            let bytes = try source.bytes()
            heldBytes = bytes.count
            let whole = DecodeOptions(maxPixels: options.maxPixels, appliesOrientation: false, checkpoint: options.checkpoint)
            let decoded: DecodedImage
            if let webp = decoder as? WebPDecoder, info.frameCount == 1,
               let factor = webpShrink(width: info.width, height: info.height, target: largest) {
                decoded = try webp.decode(bytes, scaledTo: max(1, info.width / factor),
                                         height: max(1, info.height / factor), options: whole)
            } else {
                decoded = try decoder.decode(bytes, options: whole)
            }
            warnings = decoded.warnings
            rows = try BitmapRowSource(decoded.bitmap)
            logical = (Double(decoded.bitmap.width), Double(decoded.bitmap.height))
        }
        let geometries = stored.map {
            geometry(rows: (rows.width, rows.height), logical: logical, output: $0, filter: filter)
        }
        let bandRows = DownscaleMemory.model(info: info, fileSize: heldBytes, rowWidth: rows.width, geometries: geometries,
                                             filter: filter, memoryBudget: memoryBudget).bandRows
        var rowSinks: [(any ImageRowSink)?] = upright.map { _ in nil }
        if info.orientation == .up {
            rowSinks = try sinks(info, rows.alpha, upright)
            guard rowSinks.count == upright.count else {
                throw TesseraError(.internalFailure, origin: .downscale, reason: "one sink or none per output size")
            }
        }
        let bitmaps = try BandDownscaler(filter: filter, linearLight: linearLight, bandRows: bandRows)
            .downscale(rows, geometries: geometries, sinks: rowSinks, checkpoint: options.checkpoint)
        warnings += rows.warnings
        var images: [DecodedImage?] = []
        for bitmap in bitmaps {
            images.append(try bitmap.map { bitmap throws(TesseraError) in
                DecodedImage(bitmap: try bitmap.applying(info.orientation), info: info,
                             orientationApplied: true, warnings: warnings)
            })
        }
        return Result(info: info, images: images, warnings: warnings)
    }

    /// WebP's decoder scales by any size: shrink by the largest whole factor that leaves at least
    /// 2× for the final filter, as with JPEG.
    static func webpShrink(width: Int, height: Int, target: (Int, Int)) -> Int? {
        let factor = min(width / max(1, 2 * target.0), height / max(1, 2 * target.1))
        return factor >= 2 ? factor : nil
    }

    /// How one output is made from the rows read: a box pre-shrink to about twice the output
    /// (none for the box filter itself), then the filter.
    static func geometry(rows: (width: Int, height: Int), logical: (width: Double, height: Double),
                         output: (width: Int, height: Int), filter: ResamplingFilter) -> BandDownscaler.Geometry {
        let box = filter == .box ? ShrinkPlan(decodeDenominator: 1, boxX: 1, boxY: 1)
            : ShrinkPlan.plan(sourceWidth: rows.width, sourceHeight: rows.height, targetWidth: output.width,
                              targetHeight: output.height)
        return BandDownscaler.Geometry(outputWidth: output.width, outputHeight: output.height,
                                       logicalWidth: logical.width, logicalHeight: logical.height,
                                       boxX: box.boxX, boxY: box.boxY)
    }
}
