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

    /// The source band height that keeps a run within `memoryBudget` bytes, at least 1 row and at
    /// most 256 (taller bands stop paying: a band of 256 rows already amortises each read); a
    /// budget smaller than the fixed part of the run still gets one row rather than nothing.
    public static func bandRows(sourceWidth: Int, geometries: [Geometry], filter: ResamplingFilter,
                                memoryBudget: Int) -> Int {
        let fixed = fixedMemory(sourceWidth: sourceWidth, geometries: geometries, filter: filter)
        return min(256, max(1, (memoryBudget - fixed) / max(1, bandRowBytes(sourceWidth: sourceWidth))))
    }

    /// `bandRows(sourceWidth:geometries:filter:memoryBudget:)` for one output.
    public static func bandRows(sourceWidth: Int, geometry: Geometry, filter: ResamplingFilter,
                                memoryBudget: Int) -> Int {
        bandRows(sourceWidth: sourceWidth, geometries: [geometry], filter: filter, memoryBudget: memoryBudget)
    }

    /// One band row: decoded RGBA8.
    public static func bandRowBytes(sourceWidth: Int) -> Int { sourceWidth * 4 }

    /// Bytes a run holds besides its band. Shared by all outputs: one premultiplied float row of
    /// the source (16 bytes a pixel). Per output: its box-shrunk float row (boxWidth × 16) and
    /// accumulator (× 16), the ring of filtered rows its vertical filter reads (taps + 1 rows of
    /// outputWidth × 16), the output bitmap (RGBA8), and both axes' filter weights (per output
    /// column and per output row: `ResamplingWeights.bytes`).
    public static func fixedMemory(sourceWidth: Int, geometries: [Geometry], filter: ResamplingFilter) -> Int {
        sourceWidth * 16 + geometries.reduce(0) { total, geometry in
            let boxWidth = (sourceWidth + geometry.boxX - 1) / geometry.boxX
            let taps = Int((filter.support * 2 * max(1, geometry.logicalHeight / Double(geometry.boxY) /
                                                       Double(geometry.outputHeight))).rounded(.up)) + 2
            let weights = ResamplingWeights.bytes(logicalSize: geometry.logicalWidth / Double(geometry.boxX),
                                                  outputSize: geometry.outputWidth, filter: filter)
                + ResamplingWeights.bytes(logicalSize: geometry.logicalHeight / Double(geometry.boxY),
                                          outputSize: geometry.outputHeight, filter: filter)
            return total + boxWidth * 32 + (taps + 1) * geometry.outputWidth * 16
                + geometry.outputWidth * geometry.outputHeight * 4 + weights
        }
    }

    /// Reads every row of `source` and returns the downscaled image, in the source's alpha convention.
    public func downscale(_ source: any RowSource, geometry: Geometry,
                          checkpoint: () throws(TesseraError) -> Void = {}) throws(TesseraError) -> Bitmap {
        try downscale(source, geometries: [geometry], checkpoint: checkpoint)[0]
    }

    /// One pass over `source` feeding several outputs at once (an asset's 1x and 2x from its 3x
    /// master): the source is decoded once, whatever the number of targets.
    public func downscale(_ source: any RowSource, geometries: [Geometry],
                          checkpoint: () throws(TesseraError) -> Void = {}) throws(TesseraError) -> [Bitmap] {
        try downscale(source, geometries: geometries, sinks: geometries.map { _ in nil }, checkpoint: checkpoint)
            .map { $0! }
    }

    /// One pass over `source` feeding several outputs at once. An output with a sink hands it its
    /// rows as they are finished (an encoder that streams them, so that the image is never whole)
    /// and gets nil back; the others come back as bitmaps, in the source's alpha convention.
    public func downscale(_ source: any RowSource, geometries: [Geometry], sinks: [(any ImageRowSink)?],
                          checkpoint: () throws(TesseraError) -> Void = {}) throws(TesseraError) -> [Bitmap?] {
        precondition(sinks.count == geometries.count, "one sink or nil per output")
        var runs: [BandRun] = []
        var targets: [any ImageRowSink] = []
        for (geometry, sink) in zip(geometries, sinks) {
            runs.append(try BandRun(source: source, geometry: geometry, filter: filter, linearLight: linearLight))
            targets.append(sink ?? BitmapRows(width: geometry.outputWidth, height: geometry.outputHeight))
        }
        // One conversion to premultiplied floats feeds every output.
        let conversion = PixelConversion(alpha: source.alpha, linearLight: linearLight)
        let floatRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: source.width)
        defer { floatRow.deallocate() }
        let width = source.width
        try BandFeeder(source: source, bandRows: bandRows).feed(checkpoint: checkpoint) { row in
            conversion.load(row, count: width, into: floatRow)
            for index in runs.indices { runs[index].push(floatRow, into: targets[index]) }
        }
        for (run, geometry) in zip(runs, geometries) where run.finishedRows != geometry.outputHeight {
            throw TesseraError(.internalFailure, origin: .downscale,
                               reason: "wrote \(run.finishedRows) of \(geometry.outputHeight) rows")
        }
        var outputs: [Bitmap?] = []
        for (index, geometry) in geometries.enumerated() {
            guard let rows = targets[index] as? BitmapRows, sinks[index] == nil else {
                outputs.append(nil)
                continue
            }
            outputs.append(try Bitmap(width: geometry.outputWidth, height: geometry.outputHeight, format: .rgba8,
                                      alpha: source.alpha, colorSpace: source.colorSpace, pixels: rows.take()))
        }
        return outputs
    }
}
