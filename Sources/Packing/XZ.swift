import CLZMA
import TesseraCore

/// xz compression through liblzma: single-threaded, so the same bytes always give the same output.
public enum XZ {
    /// Compresses with preset `level` (0–9) and a CRC-64 check.
    public static func compress(_ bytes: [UInt8], level: UInt32 = 6) throws(TesseraError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: lzma_stream_buffer_bound(bytes.count))
        var position = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                lzma_easy_buffer_encode(level, LZMA_CHECK_CRC64, nil, input.baseAddress, input.count, out.baseAddress,
                                        &position, out.count)
            }
        }
        guard status == LZMA_OK else {
            throw TesseraError(.internalFailure, stage: "pack", reason: "xz compression failed (liblzma \(status.rawValue))")
        }
        return Array(output.prefix(position))
    }

    /// Decompresses into memory, refusing to produce more than `expectedSize` bytes (the size the
    /// record declares) or to start at all when that is over `maxSize`. Memory grows with the bytes
    /// really produced, never with the declared size; `BundleFile.read(_:into:)` streams instead.
    public static func decompress(_ bytes: [UInt8], expectedSize: Int,
                                  maxSize: Int = BundleLimits.standard.maxInMemorySize) throws(TesseraError) -> [UInt8] {
        guard expectedSize <= maxSize else {
            throw TesseraError(.limitExceeded, stage: "bundle",
                               reason: "an xz payload declares \(expectedSize) bytes, over the \(maxSize)-byte limit for reading into memory")
        }
        let decoder = try XZStreamDecoder(expectedSize: expectedSize)
        var output: [UInt8] = []
        let append = { (piece: UnsafeRawBufferPointer) throws(TesseraError) in output.append(contentsOf: piece) }
        try decoder.feed(bytes, into: append)
        try decoder.finish(into: append)
        return output
    }

    /// CRC-32 (zlib polynomial).
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        lzma_crc32(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, previous)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }
}
