#if canImport(CDeflate)
import CDeflate
#endif

/// CRC-32 with the zlib polynomial: the one every format Tessera reads or writes checks with (PNG
/// chunks, bundle records, index and footer, ready-bitmap headers). One entry point, so all of
/// them agree and the fast implementation serves each.
///
/// On Linux it is libdeflate's carry-less-multiply implementation, several times faster than a
/// table (that showed in packing gigabytes of 3x masters and in checking large PNG masters'
/// image data). Elsewhere, where no libdeflate is linked (an app using `TesseraClient`), a table.
public enum CRC32 {
    /// The CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before them; 0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        #if canImport(CDeflate)
        return UInt32(libdeflate_crc32(previous, bytes.baseAddress, bytes.count))
        #else
        var crc = ~previous
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
        #endif
    }

    /// The CRC-32 of `bytes` (an array or a slice of one), continuing from `previous`.
    public static func checksum(_ bytes: some Collection<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0), continuing: previous) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { checksum($0, continuing: previous) }
    }

    #if !canImport(CDeflate)
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    #endif
}
