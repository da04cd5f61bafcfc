import TesseraCore

/// Downscales a stream of rows holding only what its filter needs: a band of decoded rows, one
/// box-accumulator row and a ring of horizontally filtered rows as tall as the vertical kernel.
/// Memory is proportional to the image width times the filter's support, whatever the height.
///
/// Stages, per source row: convert to premultiplied float → box-average (`ShrinkPlan`'s integer
/// factors) → horizontal filter into the ring → as soon as the ring holds every row an output
/// row needs, the vertical filter writes that output row. The arithmetic lives in
/// `FilterKernels`, shared with every other path, so band height never changes a single bit.
public struct BandDownscaler: Sendable {
    public var filter: ResamplingFilter
    /// Filter in linear light instead of sRGB-encoded values.
    public var linearLight: Bool
    /// Source rows pulled from the decoder at a time.
    public var bandRows: Int

    public init(filter: ResamplingFilter = .lanczos3, linearLight: Bool = false, bandRows: Int = 64) {
        self.filter = filter
        self.linearLight = linearLight
        self.bandRows = max(1, bandRows)
    }

    /// Geometry of one run.
    public struct Geometry: Sendable, Equatable {
        public var outputWidth: Int
        public var outputHeight: Int
        /// What the source rows stand for: after shrink-on-load by d, the original size / d,
        /// which libjpeg's rounded-up ⌈W/d⌉ rows slightly exceed.
        public var logicalWidth: Double
        public var logicalHeight: Double
        public var boxX: Int
        public var boxY: Int

        public init(outputWidth: Int, outputHeight: Int, logicalWidth: Double, logicalHeight: Double,
                    boxX: Int = 1, boxY: Int = 1) {
            self.outputWidth = max(1, outputWidth)
            self.outputHeight = max(1, outputHeight)
            self.logicalWidth = logicalWidth
            self.logicalHeight = logicalHeight
            self.boxX = max(1, boxX)
            self.boxY = max(1, boxY)
        }
    }

    /// The source band height that keeps a run within `memoryBudget` bytes, at least 1 row; a
    /// budget smaller than the fixed part of the run still gets one row rather than nothing.
    public static func bandRows(sourceWidth: Int, geometry: Geometry, filter: ResamplingFilter,
                                memoryBudget: Int) -> Int {
        let fixed = workingMemory(sourceWidth: sourceWidth, geometry: geometry, filter: filter, bandRows: 0)
        let perRow = max(1, sourceWidth * 4)
        return min(256, max(1, (memoryBudget - fixed) / perRow))
    }

    /// Peak bytes a run holds: band, float row, box row, ring, output bitmap.
    public static func workingMemory(sourceWidth: Int, geometry: Geometry, filter: ResamplingFilter,
                                     bandRows: Int) -> Int {
        let boxWidth = (sourceWidth + geometry.boxX - 1) / geometry.boxX
        let taps = Int((filter.support * 2 * max(1, geometry.logicalHeight / Double(geometry.boxY) /
                                                   Double(geometry.outputHeight))).rounded(.up)) + 2
        return bandRows * sourceWidth * 4 + sourceWidth * 16 + boxWidth * 32
            + (taps + 1) * geometry.outputWidth * 16 + geometry.outputWidth * geometry.outputHeight * 4
    }

    /// Reads every row of `source` and returns the downscaled image, in the source's alpha convention.
    public func downscale(_ source: any RowSource, geometry: Geometry,
                          checkpoint: () throws(TesseraError) -> Void = {}) throws(TesseraError) -> Bitmap {
        var output = try Bitmap.unfilled(width: geometry.outputWidth, height: geometry.outputHeight, format: .rgba8,
                                         alpha: source.alpha, colorSpace: source.colorSpace)
        let run = try BandRun(source: source, geometry: geometry, filter: filter, linearLight: linearLight)
        let stride = source.width * 4
        let band = UnsafeMutableRawBufferPointer.allocate(byteCount: bandRows * stride, alignment: 64)
        defer { band.deallocate() }
        try output.pixels.withUnsafeMutableBufferPointer { pixels throws(TesseraError) in
            let target = pixels.baseAddress!
            while source.rowsRead < source.height {
                try checkpoint()
                let count = try source.readRows(into: band, stride: stride, count: bandRows)
                guard count > 0 else {
                    throw TesseraError(.invalidInput, stage: "downscale",
                                       reason: "the image ended after \(source.rowsRead) of \(source.height) rows")
                }
                for row in 0..<count {
                    run.push(band.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * stride, into: target)
                }
            }
        }
        try source.finish()
        guard run.finishedRows == geometry.outputHeight else {
            throw TesseraError(.internalFailure, stage: "downscale",
                               reason: "wrote \(run.finishedRows) of \(geometry.outputHeight) rows")
        }
        return output
    }
}
