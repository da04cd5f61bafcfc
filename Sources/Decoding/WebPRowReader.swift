import CWebP
import TesseraCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a still WebP's rows through libwebp's incremental decoder, fed from the file a piece
/// at a time, so neither the file nor the decoded image is ever held whole.
///
/// libwebp writes each output row once, at its place in one image-sized buffer. That buffer is
/// an anonymous mapping whose pages are handed back to the system as soon as their rows have been
/// read, so what stays resident is the band between the rows read and the rows decoded. The
/// pixels are those of `WebPDecode` with the same options (the tests compare them).
final class WebPRowReader: RowReader {
    let info: ImageInfo
    let width: Int
    let height: Int
    private(set) var rowsRead = 0
    var alpha: AlphaMode { info.hasAlpha ? .straight : .opaque }
    var colorSpace: ColorSpace { info.colorSpace }
    var warnings: [String] { [] }

    private let input: CodecInput
    private let end: Int
    private var fed = 0
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let decoder: OpaquePointer
    private let output: UnsafeMutableRawPointer
    private let outputSize: Int
    private let stride: Int
    private var released = 0
    private var done = false
    private let piece: UnsafeMutableRawBufferPointer

    /// How much of the file is read and handed to libwebp at a time.
    static let pieceSize = 64 << 10

    /// `end`: the bytes of the input to feed (the RIFF payload's end). `width`×`height` is the
    /// output size; smaller than the image, libwebp scales while decoding.
    init(_ input: CodecInput, info: ImageInfo, end: Int, width: Int, height: Int) throws(TesseraError) {
        self.input = input
        self.info = info
        self.end = end
        self.width = width
        self.height = height
        stride = width * 4
        let (size, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, width > 0, height > 0 else {
            throw TesseraError(.limitExceeded, file: input.path, origin: .decode, reason: "\(width)×\(height) pixels cannot be allocated")
        }
        outputSize = size
        guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapping != MAP_FAILED else {
            throw TesseraError(.limitExceeded, file: input.path, origin: .decode,
                               reason: "WebP: cannot map \(size) bytes for the decoded rows")
        }
        output = mapping
        config = .allocate(capacity: 1)
        piece = .allocate(byteCount: Self.pieceSize, alignment: 16)
        guard WebPInitDecoderConfig(config) != 0 else {
            Self.release(config, output, size, piece)
            throw TesseraError(.internalFailure, file: input.path, origin: .decode, reason: "WebP: libwebp version mismatch")
        }
        if width != info.width || height != info.height {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(width)
            config.pointee.options.scaled_height = Int32(height)
        }
        // As `WebPDecoder.decodeStill`: threads split the in-loop filtering, not the pixels.
        config.pointee.options.use_threads = 1
        config.pointee.output.colorspace = MODE_RGBA
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.rgba = output.assumingMemoryBound(to: UInt8.self)
        config.pointee.output.u.RGBA.stride = Int32(stride)
        config.pointee.output.u.RGBA.size = size
        // The config must outlive the decoder: libwebp keeps pointers into it.
        guard let decoder = WebPIDecode(nil, 0, config) else {
            Self.release(config, output, size, piece)
            throw TesseraError(.internalFailure, file: input.path, origin: .decode, reason: "WebP: cannot start the incremental decoder")
        }
        self.decoder = decoder
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output)
        Self.release(config, output, outputSize, piece)
    }

    private static func release(_ config: UnsafeMutablePointer<WebPDecoderConfig>, _ output: UnsafeMutableRawPointer,
                                _ size: Int, _ piece: UnsafeMutableRawBufferPointer) {
        config.deallocate()
        munmap(output, size)
        piece.deallocate()
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        let wanted = min(count, height - rowsRead)
        guard wanted > 0 else { return 0 }
        var decoded = decodedRows()
        while decoded < rowsRead + wanted && !done {
            try feed()
            decoded = decodedRows()
        }
        let rows = min(wanted, decoded - rowsRead)
        guard rows > 0 else {
            throw failure("the image data ends after \(rowsRead) of \(height) rows (the file is truncated)")
        }
        for row in 0..<rows {
            (buffer.baseAddress! + row * stride).copyMemory(from: output + (rowsRead + row) * self.stride, byteCount: width * 4)
        }
        rowsRead += rows
        releaseReadPages()
        return rows
    }

    func finish() throws(TesseraError) {
        guard rowsRead == height else { throw failure("finished after \(rowsRead) of \(height) rows") }
    }

    /// Rows libwebp has written so far.
    private func decodedRows() -> Int {
        var lastY: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastY, nil, nil, nil) != nil else { return 0 }
        return min(height, Int(lastY))
    }

    /// Hands libwebp the next piece of the input; `done` once the image is complete.
    private func feed() throws(TesseraError) {
        let status: VP8StatusCode
        switch input.storage {
        case .file(let file):
            let count = min(Self.pieceSize, end - fed)
            let read = count > 0 ? file.read(at: fed, into: UnsafeMutableRawBufferPointer(rebasing: piece[..<count])) : 0
            guard read > 0 else {
                throw failure("the file ends after \(fed) bytes, in the image data at row \(decodedRows()) of \(height) (truncated)")
            }
            fed += read
            status = WebPIAppend(decoder, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), read)
        case .bytes(let source):
            // The bytes are already in memory: libwebp reads them where they are, a piece more each time.
            guard fed < min(end, source.count) else {
                throw failure("the data ends after \(fed) bytes, in the image data at row \(decodedRows()) of \(height) (truncated)")
            }
            fed = min(min(end, source.count), fed + Self.pieceSize)
            status = WebPIUpdate(decoder, source.pointer, fed)
        }
        switch status {
        case VP8_STATUS_OK: done = true
        case VP8_STATUS_SUSPENDED: break
        default: throw failure(WebPContainer.describe(status))
        }
    }

    /// Gives back the pages holding only rows already read: libwebp never writes them again.
    private func releaseReadPages() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let upTo = (rowsRead * stride) / page * page
        guard upTo > released else { return }
        #if canImport(Glibc)
        let advice = MADV_DONTNEED
        #else
        let advice = MADV_FREE
        #endif
        _ = madvise(output + released, upTo - released, advice)
        released = upTo
    }

    private func failure(_ reason: String) -> TesseraError {
        TesseraError(.invalidInput, file: input.path, origin: .decode, reason: "WebP: \(reason)")
    }
}
