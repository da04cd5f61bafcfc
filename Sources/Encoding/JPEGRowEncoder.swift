import CCodecGuards
import TesseraCore

/// A JPEG made from rows as they come (`ImageRowEncoder`), byte for byte the file
/// `JPEGEncoder.encode` writes for the finished image. libjpeg takes each row at once; what it
/// holds is its own (the whole image's DCT coefficients when Huffman tables are optimised).
///
/// `JPEGEncoder` writes a one-channel file when every pixel is opaque gray, which only the last
/// row settles: the channel count is taken from the source (gray or not) at the start, and a row
/// or an image that ends up not matching it makes `finish` say nil.
final class JPEGRowEncoder: ImageRowEncoder {
    private let encoding: RowEncoding
    private let writer: OpaquePointer
    private let row: UnsafeMutablePointer<UInt8>
    private var opaque = true, gray = true, fits = true
    /// libjpeg's message for a failed row, thrown by `finish`.
    private var failure: TesseraError?
    private var rowsTaken = 0

    init(encoder: JPEGEncoder, encoding: RowEncoding) throws(TesseraError) {
        self.encoding = encoding
        var made: OpaquePointer?
        let components: Int32 = encoding.gray ? 1 : 4
        let status = Self.calling { message in
            (encoding.iccProfile ?? []).withUnsafeBufferPointer { profile in
                tessera_jpeg_writer_start(UInt32(encoding.width), UInt32(encoding.height), components,
                                          Int32(encoder.quality), encoder.progressive ? 1 : 0,
                                          encoder.optimizeCoding ? 1 : 0, encoder.chroma == .s444 ? 1 : 0,
                                          profile.isEmpty ? nil : profile.baseAddress, profile.count, &made, message)
            }
        }
        guard let made else { throw status ?? TesseraError(.internalFailure, origin: .encode, reason: "JPEG: out of memory") }
        writer = made
        row = .allocate(capacity: encoding.width * 4)
        if let status {
            tessera_jpeg_writer_close(made)
            row.deallocate()
            throw status
        }
    }

    deinit {
        tessera_jpeg_writer_close(writer)
        row.deallocate()
    }

    func rowStorage(_ y: Int) -> UnsafeMutablePointer<UInt8> { row }

    func finishRow(_ y: Int) {
        guard fits, failure == nil else { return }
        let width = encoding.width
        if encoding.alpha == .premultiplied {
            PixelPacking.unpremultiply(UnsafeMutableBufferPointer(start: row, count: width * 4))
        }
        PixelPacking.scan(UnsafeBufferPointer(start: row, count: width * 4), opaque: &opaque, gray: &gray)
        if encoding.gray {
            guard opaque, gray else {
                fits = false
                return
            }
            PixelPacking.pack(row, count: width, as: .gray, into: row)
        }
        let (writer, row) = (self.writer, self.row)
        failure = Self.calling { message in tessera_jpeg_writer_rows(writer, row, width * 4, 1, message) }
        rowsTaken += 1
    }

    func finish(notes: inout [String]) throws(TesseraError) -> [UInt8]? {
        if let failure { throw failure }
        // A gray source whose rows were not all opaque gray, or the reverse.
        guard fits, encoding.gray == (opaque && gray) else { return nil }
        guard rowsTaken == encoding.height else {
            throw TesseraError(.internalFailure, origin: .encode,
                               reason: "JPEG: \(rowsTaken) of \(encoding.height) rows were given")
        }
        let writer = self.writer
        return try collectEncoderOutput(format: .jpeg) { output, message in
            tessera_jpeg_writer_finish(writer, output, message)
        }
    }

    /// Runs a writer call; its failure as an error, nil when it succeeded.
    private static func calling(_ body: (UnsafeMutablePointer<CChar>) -> Int32) -> TesseraError? {
        var message = [CChar](repeating: 0, count: Int(TESSERA_MESSAGE_SIZE))
        let status = message.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        guard status != 0 else { return nil }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return TesseraError(.internalFailure, origin: .encode, reason: "JPEG: \(text.isEmpty ? "unknown encoder error" : text)")
    }
}
