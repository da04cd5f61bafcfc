import TesseraCore

/// The sink of an output that is wanted whole: each finished row is copied into the bitmap's own
/// storage, so the image is held once (a 2x of a 4000 px master is 21 MB).
final class BitmapRows: ImageRowSink {
    private let rowBytes: Int
    private var pixels: [UInt8]
    private let row: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int) {
        rowBytes = width * 4
        let count = rowBytes * height
        // Left uninitialised: every row is written before the bitmap is taken, which the
        // downscaler's row count checks.
        pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        row = .allocate(capacity: rowBytes)
    }

    deinit { row.deallocate() }

    func rowStorage(_ y: Int) -> UnsafeMutablePointer<UInt8> { row }

    func finishRow(_ y: Int) {
        let (row, rowBytes) = (self.row, self.rowBytes)
        pixels.withUnsafeMutableBufferPointer { ($0.baseAddress! + y * rowBytes).update(from: row, count: rowBytes) }
    }

    /// The pixels, handed over without a copy.
    func take() -> [UInt8] {
        defer { pixels = [] }
        return pixels
    }
}
