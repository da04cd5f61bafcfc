#if !canImport(Compression)
import CLZMA
#endif
import TesseraCore

/// xz decompression and the CRC-32 bundles frame records with: liblzma on Linux, the Compression
/// framework and a table CRC on Apple platforms (so an app links no liblzma). Compression is
/// build-side only (`XZ.compress` in Packing).
public enum XZ {
    /// Decompresses into memory, refusing to produce more than `expectedSize` bytes (the size the
    /// record declares) or to start at all when that is over `maxSize`. Memory grows with the bytes
    /// really produced, never with the declared size; `BundleFile.read(_:into:)` streams instead.
    public static func decompress(_ bytes: [UInt8], expectedSize: Int,
                                  maxSize: Int = BundleLimits.standard.maxInMemorySize) throws(TesseraError) -> [UInt8] {
        guard expectedSize <= maxSize else {
            throw TesseraError(.limitExceeded, stage: .bundle,
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
        #if canImport(Compression)
        var crc = ~previous
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
        #else
        lzma_crc32(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, previous)
        #endif
    }

    #if canImport(Compression)
    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    #endif

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }
}
