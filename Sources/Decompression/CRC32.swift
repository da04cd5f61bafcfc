import CLZMA

/// CRC-32 (the zlib/PNG polynomial), from liblzma.
enum CRC32 {
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { lzma_crc32($0.baseAddress, $0.count, 0) }
    }
}
