import TesseraCore

/// The state of one band downscale: buffers sized once, fed one source row at a time, already
/// converted to premultiplied floats (one conversion serves every output of a pass).
final class BandRun {
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let geometry: BandDownscaler.Geometry
    private let conversion: PixelConversion
    private let horizontal: ResamplingWeights
    private let vertical: ResamplingWeights
    private let boxWidth: Int
    private let ringSize: Int
    private let sums: UnsafeMutablePointer<SIMD4<Float>>
    private let boxRow: UnsafeMutablePointer<SIMD4<Float>>
    private let ring: UnsafeMutablePointer<SIMD4<Float>>
    private let outputRow: UnsafeMutablePointer<SIMD4<Float>>
    private var sourceRows = 0
    private var rowsInBox = 0
    private var boxRows = 0
    private(set) var finishedRows = 0

    init(source: any RowSource, geometry: BandDownscaler.Geometry, filter: ResamplingFilter,
         linearLight: Bool) throws(TesseraError) {
        guard source.width > 0, source.height > 0 else {
            throw TesseraError(.invalidInput, origin: .downscale, reason: "the source is empty")
        }
        sourceWidth = source.width
        sourceHeight = source.height
        self.geometry = geometry
        conversion = PixelConversion(alpha: source.alpha, linearLight: linearLight)
        boxWidth = (source.width + geometry.boxX - 1) / geometry.boxX
        let boxHeight = (source.height + geometry.boxY - 1) / geometry.boxY
        horizontal = ResamplingWeights(inputPixels: boxWidth, logicalSize: geometry.logicalWidth / Double(geometry.boxX),
                                       outputSize: geometry.outputWidth, filter: filter)
        vertical = ResamplingWeights(inputPixels: boxHeight, logicalSize: geometry.logicalHeight / Double(geometry.boxY),
                                     outputSize: geometry.outputHeight, filter: filter)
        ringSize = vertical.maxCount
        sums = .allocate(capacity: boxWidth)
        sums.initialize(repeating: .zero, count: boxWidth)
        boxRow = .allocate(capacity: boxWidth)
        ring = .allocate(capacity: ringSize * geometry.outputWidth)
        outputRow = .allocate(capacity: geometry.outputWidth)
    }

    deinit {
        sums.deallocate()
        boxRow.deallocate()
        ring.deallocate()
        outputRow.deallocate()
    }

    /// Feeds one source row, converted by `PixelConversion` with this run's alpha and light; hands
    /// any output rows it completes to `output` (RGBA8, packed).
    func push(_ floatRow: UnsafePointer<SIMD4<Float>>, into output: any ImageRowSink) {
        sourceRows += 1
        if geometry.boxX == 1 && geometry.boxY == 1 {
            emitBoxRow(floatRow, into: output)
            return
        }
        FilterKernels.accumulate(floatRow, count: sourceWidth, factor: geometry.boxX, into: sums)
        rowsInBox += 1
        if rowsInBox == geometry.boxY || sourceRows == sourceHeight {
            FilterKernels.average(sums, count: boxWidth, factor: geometry.boxX, inputWidth: sourceWidth,
                                  rows: rowsInBox, into: boxRow)
            sums.update(repeating: .zero, count: boxWidth)
            rowsInBox = 0
            emitBoxRow(boxRow, into: output)
        }
    }

    private func emitBoxRow(_ row: UnsafePointer<SIMD4<Float>>, into output: any ImageRowSink) {
        let width = geometry.outputWidth
        FilterKernels.convolve(row, weights: horizontal, into: ring + (boxRows % ringSize) * width)
        boxRows += 1
        vertical.weights.withUnsafeBufferPointer { weights in
            while finishedRows < geometry.outputHeight,
                  vertical.starts[finishedRows] + vertical.counts[finishedRows] <= boxRows {
                let y = finishedRows, start = vertical.starts[y]
                FilterKernels.combine(count: width, taps: vertical.counts[y],
                                      weights: weights.baseAddress! + y * vertical.stride,
                                      rows: { UnsafePointer(self.ring + ((start + $0) % self.ringSize) * width) },
                                      into: outputRow)
                conversion.store(outputRow, count: width, into: output.rowStorage(y))
                output.finishRow(y)
                finishedRows += 1
            }
        }
    }
}
