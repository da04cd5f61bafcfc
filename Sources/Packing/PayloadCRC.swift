import CDeflate

/// The CRC-32 that follows every payload in a bundle (`docs/bundle-format.md`): the same
/// polynomial and convention as `XZ.crc32`, which readers use, computed with libdeflate's
/// carry-less-multiply implementation: several times faster than liblzma's table-driven one,
/// which showed in packing gigabytes of 3x masters.
enum PayloadCRC {
    static func of(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        UInt32(libdeflate_crc32(previous, bytes.baseAddress, bytes.count))
    }

    static func of(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { of($0) }
    }
}
