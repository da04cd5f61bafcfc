#if canImport(Compression)
import Compression
import TesseraCore

/// The Apple-platform twin of the liblzma `XZStreamDecoder`: the Compression framework's
/// `COMPRESSION_LZMA` reads the same xz streams, so an app needs no liblzma. Same contract:
/// bounded memory, never more than the declared size, and a complete stream of exactly that size.
final class XZStreamDecoder {
    static let outputChunk = 1 << 16

    let expectedSize: Int
    private(set) var produced = 0
    private var ended = false
    private let stream: UnsafeMutablePointer<compression_stream>
    private let output: UnsafeMutablePointer<UInt8>

    init(expectedSize: Int) throws(TesseraError) {
        self.expectedSize = expectedSize
        stream = .allocate(capacity: 1)
        output = .allocate(capacity: Self.outputChunk)
        guard compression_stream_init(stream, COMPRESSION_STREAM_DECODE, COMPRESSION_LZMA) == COMPRESSION_STATUS_OK else {
            stream.deallocate()
            output.deallocate()
            throw TesseraError(.internalFailure, origin: .bundle, reason: "cannot start the xz decoder (Compression)")
        }
    }

    deinit {
        compression_stream_destroy(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Decompresses the next piece of the stream.
    func feed(_ input: UnsafeRawBufferPointer,
              into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        guard !input.isEmpty else { return }
        guard !ended else { throw Self.failure("bytes follow the end of the xz stream") }
        try run(input, finalize: false, into: sink)
    }

    /// Decompresses the next piece of the stream.
    func feed(_ input: [UInt8],
              into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        try input.withUnsafeBytes { bytes in
            Result { () throws(TesseraError) in try feed(bytes, into: sink) }
        }.get()
    }

    /// Ends the stream: it must be complete and have produced exactly `expectedSize` bytes.
    func finish(into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        if !ended { try run(UnsafeRawBufferPointer(start: nil, count: 0), finalize: true, into: sink) }
        guard ended else { throw Self.failure("the xz stream is truncated") }
        guard produced == expectedSize else {
            throw Self.failure("xz payload decompresses to \(produced) bytes, not its declared \(expectedSize)")
        }
    }

    private func run(_ input: UnsafeRawBufferPointer, finalize: Bool,
                     into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        // The framework wants a non-null source even when there is nothing to read: any valid pointer will do.
        stream.pointee.src_ptr = input.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
            ?? UnsafePointer(output)
        stream.pointee.src_size = input.count
        while true {
            stream.pointee.dst_ptr = output
            stream.pointee.dst_size = Self.outputChunk
            let status = compression_stream_process(stream, finalize ? Int32(COMPRESSION_STREAM_FINALIZE.rawValue) : 0)
            let count = Self.outputChunk - stream.pointee.dst_size
            if count > 0 {
                guard count <= expectedSize - produced else {
                    throw Self.failure("xz payload decompresses to more than its declared \(expectedSize) bytes")
                }
                produced += count
                try sink(UnsafeRawBufferPointer(start: output, count: count))
            }
            switch status {
            case COMPRESSION_STATUS_END:
                ended = true
                guard stream.pointee.src_size == 0 else { throw Self.failure("bytes follow the end of the xz stream") }
                return
            case COMPRESSION_STATUS_OK:
                // Without progress the input is used up (or, finalizing, the stream stops early).
                if stream.pointee.dst_size > 0 { return }
            default:
                throw Self.failure("the xz payload is damaged (Compression)")
            }
        }
    }

    private static func failure(_ reason: String) -> TesseraError {
        TesseraError(.invalidInput, origin: .bundle, reason: reason)
    }
}
#endif
