import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a PNG from where libpng stopped reading (the first IDAT's data) to its end: what
/// libpng had already read ahead, then the rest of the file, read a buffer at a time.
final class PNGByteStream {
    private let path: String
    /// The file read after `pending`, or -1 when the input is in memory (`pending` is all of it).
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    /// The unconsumed bytes: first libpng's read-ahead, then each buffer read from the file.
    private var window: UnsafeRawBufferPointer

    /// `pending` must stay valid while the stream is in use (it lives in the libpng session).
    init(pending: UnsafeRawBufferPointer, descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
        window = pending
        buffer = .allocate(byteCount: descriptor >= 0 ? Self.bufferSize(descriptor) : 0, alignment: 64)
    }

    deinit { buffer.deallocate() }

    /// 256 KiB, or the whole file when it is smaller (a tiny master's buffer is not 256 KiB).
    private static func bufferSize(_ descriptor: Int32) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return 256 * 1024 }
        return min(256 * 1024, Int(status.st_size))
    }

    /// Between 1 and `limit` bytes, valid until the next call; throws at the end of the input.
    func take(upTo limit: Int) throws(TesseraError) -> UnsafeRawBufferPointer {
        if window.isEmpty { try refill() }
        let count = min(limit, window.count)
        let piece = UnsafeRawBufferPointer(rebasing: window[..<count])
        window = UnsafeRawBufferPointer(rebasing: window[count...])
        return piece
    }

    /// The next four bytes as a big-endian number (chunk lengths, types and CRCs).
    func readUInt32() throws(TesseraError) -> UInt32 {
        var value: UInt32 = 0
        var needed = 4
        while needed > 0 {
            let piece = try take(upTo: needed)
            for byte in piece { value = value << 8 | UInt32(byte) }
            needed -= piece.count
        }
        return value
    }

    /// Consumes `count` bytes, passing each piece to `body` (to update a CRC).
    func skip(_ count: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws(TesseraError) {
        var left = count
        while left > 0 {
            let piece = try take(upTo: left)
            body(piece)
            left -= piece.count
        }
    }

    private func refill() throws(TesseraError) {
        guard descriptor >= 0 else { throw truncated }
        while true {
            let count = read(descriptor, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw TesseraError(.io, file: path, origin: .decode,
                                   reason: "PNG: read error: \(String(cString: strerror(errno)))")
            }
            guard count > 0 else { throw truncated }
            window = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            return
        }
    }

    private var truncated: TesseraError {
        TesseraError(.invalidInput, file: path, origin: .decode,
                     reason: "PNG: unexpected end of file (the file is truncated)")
    }
}
