import TesseraCore

/// Writes a PNG file's signature and chunks (length, type, data, CRC-32), PNG spec §5.
struct PNGChunkWriter {
    private(set) var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ type: String, _ data: UnsafeRawBufferPointer) {
        precondition(type.utf8.count == 4 && data.count <= Int(Int32.max))
        appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        bytes.append(contentsOf: typeBytes)
        bytes.append(contentsOf: data)
        let crc = CRC32.checksum(data, continuing: CRC32.checksum(typeBytes))
        appendBigEndian(crc)
    }

    mutating func append(_ type: String, _ data: [UInt8]) {
        data.withUnsafeBytes { append(type, $0) }
    }

    private mutating func appendBigEndian(_ value: UInt32) {
        bytes.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }
}
