import TesseraCore

/// Writes a PNG file's signature and chunks (length, type, data, CRC-32), PNG spec §5.
struct PNGChunkWriter {
    private(set) var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// IDAT chunks hold at most this much each, as most encoders write them.
    static let imageDataPiece = 1 << 20

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

    /// The file: the chunks so far, then `data` compressed as IDAT chunks of `imageDataPiece`
    /// bytes, then IEND.
    ///
    /// libdeflate writes straight into the file's buffer, behind room for every IDAT header, and
    /// each piece is then moved forward into place: the compressed image is never held twice.
    func finish(compressing data: UnsafeRawBufferPointer, with compressor: ZlibStream.Compressor) throws(TesseraError) -> [UInt8] {
        let bound = compressor.bound(data.count)
        let piece = Self.imageDataPiece
        let prefix = bytes.count
        // Piece k is read from `start + k * piece` and written to `prefix + k * (piece + 12) + 8`,
        // which is never after it: no piece overwrites one not moved yet.
        let start = prefix + 12 * (bound / piece + 1)
        var written = 0
        let file = [UInt8](unsafeUninitializedCapacity: start + bound + 12) { out, initialized in
            let base = UnsafeMutableRawPointer(out.baseAddress!)
            bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: prefix) }
            written = compressor.compress(data, into: UnsafeMutableRawBufferPointer(start: base + start, count: bound))
            var at = prefix
            for offset in stride(from: 0, to: written, by: piece) {
                let count = min(piece, written - offset)
                (base + at + 8).copyMemory(from: base + start + offset, byteCount: count)
                at = Self.frame(base, at: at, type: "IDAT", count: count)
            }
            at = Self.frame(base, at: at, type: "IEND", count: 0)
            initialized = written > 0 ? at : 0
        }
        guard written > 0 else { throw ZlibStream.Compressor.failure }
        return file
    }

    /// Writes the length, type and CRC around the `count` data bytes already at `at + 8`; the
    /// offset after the chunk.
    private static func frame(_ base: UnsafeMutableRawPointer, at: Int, type: String, count: Int) -> Int {
        let typeBytes = Array(type.utf8)
        bigEndian(UInt32(count), at: base + at)
        for (index, byte) in typeBytes.enumerated() { base.storeBytes(of: byte, toByteOffset: at + 4 + index, as: UInt8.self) }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(start: base + at + 8, count: count),
                                 continuing: CRC32.checksum(typeBytes))
        bigEndian(crc, at: base + at + 8 + count)
        return at + 12 + count
    }

    private static func bigEndian(_ value: UInt32, at target: UnsafeMutableRawPointer) {
        target.storeBytes(of: value.bigEndian, as: UInt32.self)
    }

    private mutating func appendBigEndian(_ value: UInt32) {
        bytes.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }
}
