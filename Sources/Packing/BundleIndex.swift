import TesseraCore

/// The trailing index of a bundle: where every record is, and each entry's content hash, so one
/// entry can be fetched with a single ranged read.
public struct BundleIndex: Sendable, Equatable {
    public struct Entry: Sendable, Equatable, Codable {
        public var name: String
        public var kind: BundleRecord.Kind
        /// Where the record's magic starts.
        public var recordOffset: Int
        /// Where its payload starts, and how long it is as stored.
        public var payloadOffset: Int
        public var payloadLength: Int
        public var compression: BundleRecord.Compression
        public var uncompressedSize: Int
        /// SHA-256 of the uncompressed contents.
        public var sha256: ContentHash
    }

    public var entries: [Entry]

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(entries.count))
        for entry in entries {
            let name = Array(entry.name.utf8)
            bytes.appendLittleEndian(UInt16(name.count))
            bytes += name
            bytes.append(entry.kind.rawValue)
            bytes.append(entry.compression.rawValue)
            for value in [entry.recordOffset, entry.payloadOffset, entry.payloadLength, entry.uncompressedSize] {
                bytes.appendLittleEndian(UInt64(value))
            }
            bytes += entry.sha256.bytes
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> BundleIndex? {
        guard bytes.count >= 4 else { return nil }
        let count = Int(bytes.readLittleEndian(UInt32.self, at: 0))
        var offset = 4
        var entries: [Entry] = []
        for _ in 0..<count {
            guard offset + 2 <= bytes.count else { return nil }
            let nameLength = Int(bytes.readLittleEndian(UInt16.self, at: offset))
            offset += 2
            guard offset + nameLength + 2 + 32 + 32 <= bytes.count,
                  let name = String(validating: bytes[offset..<offset + nameLength], as: UTF8.self),
                  let kind = BundleRecord.Kind(rawValue: bytes[offset + nameLength]),
                  let compression = BundleRecord.Compression(rawValue: bytes[offset + nameLength + 1]) else { return nil }
            offset += nameLength + 2
            let numbers = (0..<4).map { Int(bytes.readLittleEndian(UInt64.self, at: offset + $0 * 8)) }
            offset += 32
            entries.append(Entry(name: name, kind: kind, recordOffset: numbers[0], payloadOffset: numbers[1],
                                 payloadLength: numbers[2], compression: compression, uncompressedSize: numbers[3],
                                 sha256: ContentHash(bytes: Array(bytes[offset..<offset + 32]))))
            offset += 32
        }
        return offset == bytes.count ? BundleIndex(entries: entries) : nil
    }
}

/// The fixed 32-byte footer at the very end of a bundle: "TSBNDL01", the index record's offset
/// and length, a CRC-32 of the first 24 bytes, and 4 reserved zero bytes.
public struct BundleFooter: Sendable, Equatable {
    public static let magic: [UInt8] = Array("TSBNDL01".utf8)
    public static let size = 32

    public var indexOffset: Int
    public var indexLength: Int

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.appendLittleEndian(UInt64(indexOffset))
        bytes.appendLittleEndian(UInt64(indexLength))
        bytes.appendLittleEndian(XZ.crc32(bytes))
        bytes.appendLittleEndian(UInt32(0))
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> BundleFooter? {
        guard bytes.count == size, bytes.starts(with: magic),
              bytes.readLittleEndian(UInt32.self, at: 24) == XZ.crc32(Array(bytes[0..<24])) else { return nil }
        return BundleFooter(indexOffset: Int(bytes.readLittleEndian(UInt64.self, at: 8)),
                            indexLength: Int(bytes.readLittleEndian(UInt64.self, at: 16)))
    }
}
