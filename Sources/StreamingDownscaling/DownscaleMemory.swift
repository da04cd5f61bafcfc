import Decoding
import Downscaling
import TesseraCore

/// The one memory model of a streaming downscale (`docs/downscaling.md`): the scheduler reserves
/// `peakBytes` for the job, and the run sizes its band from the same parts, so a run never uses
/// more than was reserved for it (a budget below the fixed parts still gets a one-row band).
public struct DownscaleMemory: Sendable, Equatable {
    /// The file held in memory: formats that are not streamed from the file (GIF, animated WebP, Adam7 PNG).
    public var sourceBytes: Int
    /// What decoding holds for the whole run: the decoded image when it cannot be streamed, else
    /// the decoder's own whole-image buffer (a progressive JPEG's DCT coefficients) plus two of
    /// its output rows.
    public var decoderBytes: Int
    /// The downscaler's scratch rows, filter rings and output bitmaps (`BandDownscaler.fixedMemory`).
    public var fixedBytes: Int
    /// The band of decoded rows the downscaler reads at a time.
    public var bandRows: Int
    public var bandBytes: Int

    public var peakBytes: Int { sourceBytes + decoderBytes + fixedBytes + bandBytes }

    /// The model for a file with this header, producing `outputs` (stored orientation), under
    /// `memoryBudget`. `rowWidth` is the width of the rows the downscaler reads: the header's
    /// width after shrink-on-load.
    public static func model(info: ImageInfo, fileSize: Int, rowWidth: Int, geometries: [BandDownscaler.Geometry],
                             filter: ResamplingFilter, memoryBudget: Int) -> DownscaleMemory {
        let streamed = isStreamed(info)
        let source = streamed ? 0 : fileSize
        let decoder = streamed ? info.decoderBufferBytes + 2 * rowWidth * 8 : info.decodedByteCount
        let fixed = BandDownscaler.fixedMemory(sourceWidth: rowWidth, geometries: geometries, filter: filter)
        let rows = BandDownscaler.bandRows(sourceWidth: rowWidth, geometries: geometries, filter: filter,
                                           memoryBudget: memoryBudget - source - decoder)
        return DownscaleMemory(sourceBytes: source, decoderBytes: decoder, fixedBytes: fixed, bandRows: rows,
                               bandBytes: rows * BandDownscaler.bandRowBytes(sourceWidth: rowWidth))
    }

    /// The model as planned from the header alone, before anything is opened: the same shrink-on-
    /// load and box geometry `StreamingDownscale.run` will use.
    public static func planned(info: ImageInfo, fileSize: Int, outputs: [(width: Int, height: Int)],
                               filter: ResamplingFilter, memoryBudget: Int) -> DownscaleMemory {
        guard let largest = outputs.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            return model(info: info, fileSize: fileSize, rowWidth: info.width, geometries: [], filter: filter,
                         memoryBudget: memoryBudget)
        }
        let denominator = !isStreamed(info) ? 1
            : info.format == .jpeg ? ShrinkPlan.plan(sourceWidth: info.width, sourceHeight: info.height,
                                                     targetWidth: largest.width, targetHeight: largest.height,
                                                     denominators: [1, 2, 4, 8]).decodeDenominator
            : info.format == .webp ? StreamingDownscale.webpShrink(width: info.width, height: info.height,
                                                                   target: (largest.width, largest.height)) ?? 1
            : 1
        // libjpeg rounds scaled sizes up, libwebp down.
        let roundUp = info.format == .webp ? 0 : denominator - 1
        let rowWidth = max(1, (info.width + roundUp) / denominator)
        let rowHeight = max(1, (info.height + roundUp) / denominator)
        let geometries = outputs.map {
            StreamingDownscale.geometry(rows: (rowWidth, rowHeight),
                                        logical: (Double(rowWidth), Double(rowHeight)), output: $0, filter: filter)
        }
        return model(info: info, fileSize: fileSize, rowWidth: rowWidth, geometries: geometries, filter: filter,
                     memoryBudget: memoryBudget)
    }

    /// PNG (not interlaced), JPEG and still WebP are streamed from the file a band at a time.
    static func isStreamed(_ info: ImageInfo) -> Bool { info.streamsByRows }
}
