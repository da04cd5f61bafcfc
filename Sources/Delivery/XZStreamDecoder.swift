#if !canImport(Compression)
import CLZMA
import TesseraCore

/// Decompresses one xz stream piece by piece, handing the output on as it appears, so memory is
/// bounded (liblzma's dictionary, capped by `memoryLimit`, plus one 64 KiB output buffer) however
/// large the stream claims to be or really expands to.
///
/// It refuses to produce more than the size the record declares, stopping at the first byte over,
/// and at the end requires exactly that size, a complete stream, and no bytes after it.
final class XZStreamDecoder {
    /// liblzma's dictionary allowance: preset 9 needs 65 MiB to decode; a stream asking for more
    /// was not written by Tessera.
    static let memoryLimit: UInt64 = 128 << 20
    static let outputChunk = 1 << 16

    let expectedSize: Int
    private(set) var produced = 0
    private var ended = false
    private let stream: UnsafeMutablePointer<lzma_stream>
    private let output: UnsafeMutableRawBufferPointer

    init(expectedSize: Int) throws(TesseraError) {
        self.expectedSize = expectedSize
        // Heap-allocated so liblzma always sees the stream at one address.
        stream = .allocate(capacity: 1)
        stream.initialize(to: lzma_stream())
        output = .allocate(byteCount: Self.outputChunk, alignment: 16)
        let status = lzma_stream_decoder(stream, Self.memoryLimit, 0)
        guard status == LZMA_OK else {
            lzma_end(stream)
            stream.deallocate()
            output.deallocate()
            throw TesseraError(.internalFailure, origin: .bundle, reason: "cannot start the xz decoder (liblzma \(status.rawValue))")
        }
    }

    deinit {
        lzma_end(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Decompresses the next piece of the stream.
    func feed(_ input: UnsafeRawBufferPointer,
              into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        guard !input.isEmpty else { return }
        guard !ended else { throw Self.failure("bytes follow the end of the xz stream") }
        try run(input, action: LZMA_RUN, into: sink)
    }

    /// Decompresses the next piece of the stream.
    func feed(_ input: [UInt8],
              into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        // `withUnsafeBytes` only rethrows untyped errors: carry the typed one out in a Result.
        try input.withUnsafeBytes { bytes in
            Result { () throws(TesseraError) in try feed(bytes, into: sink) }
        }.get()
    }

    /// Ends the stream: it must be complete and have produced exactly `expectedSize` bytes.
    func finish(into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        if !ended { try run(UnsafeRawBufferPointer(start: nil, count: 0), action: LZMA_FINISH, into: sink) }
        guard ended else { throw Self.failure("the xz stream is truncated") }
        guard produced == expectedSize else {
            throw Self.failure("xz payload decompresses to \(produced) bytes, not its declared \(expectedSize)")
        }
    }

    private func run(_ input: UnsafeRawBufferPointer, action: lzma_action,
                     into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = input.count
        while true {
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = output.count
            let status = lzma_code(stream, action)
            let count = output.count - stream.pointee.avail_out
            if count > 0 {
                guard count <= expectedSize - produced else {
                    throw Self.failure("xz payload decompresses to more than its declared \(expectedSize) bytes")
                }
                produced += count
                try sink(UnsafeRawBufferPointer(rebasing: output[0..<count]))
            }
            switch status {
            case LZMA_STREAM_END:
                ended = true
                guard stream.pointee.avail_in == 0 else { throw Self.failure("bytes follow the end of the xz stream") }
                return
            case LZMA_OK:
                // Done with this input once liblzma has taken all of it and left output room unused.
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0, action == LZMA_RUN { return }
            case LZMA_BUF_ERROR:
                // No progress possible: at LZMA_FINISH this means the stream stops early.
                if action == LZMA_FINISH { return }
                if stream.pointee.avail_in == 0 { return }
                throw Self.failure("the xz decoder is stuck (liblzma \(status.rawValue))")
            case LZMA_MEMLIMIT_ERROR:
                throw TesseraError(.limitExceeded, origin: .bundle,
                                   reason: "the xz stream needs more than \(Self.memoryLimit >> 20) MiB to decode")
            default:
                throw Self.failure("the xz payload is damaged (liblzma \(status.rawValue))")
            }
        }
    }

    private static func failure(_ reason: String) -> TesseraError {
        TesseraError(.invalidInput, origin: .bundle, reason: reason)
    }
}
#endif
