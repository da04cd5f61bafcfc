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

        package init(name: String, kind: BundleRecord.Kind, recordOffset: Int, payloadOffset: Int, payloadLength: Int,
                     compression: BundleRecord.Compression, uncompressedSize: Int, sha256: ContentHash) {
            self.name = name
            self.kind = kind
            self.recordOffset = recordOffset
            self.payloadOffset = payloadOffset
            self.payloadLength = payloadLength
            self.compression = compression
            self.uncompressedSize = uncompressedSize
            self.sha256 = sha256
        }
    }

    public var entries: [Entry]

    package init(entries: [Entry]) {
        self.entries = entries
    }

    package func encoded() -> [UInt8] {
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

    /// The smallest encoded entry: an empty name, kind, compression, four u64s and a SHA-256.
    package static let minimumEntryLength = 2 + 2 + 32 + 32

    /// Parses an index payload; nil when it is not well formed, including a number over `Int.max`.
    package static func decode(_ bytes: [UInt8]) -> BundleIndex? {
        guard bytes.count >= 4 else { return nil }
        let count = Int(bytes.readLittleEndian(UInt32.self, at: 0))
        guard count <= (bytes.count - 4) / minimumEntryLength else { return nil }
        var offset = 4
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard offset + 2 <= bytes.count else { return nil }
            let nameLength = Int(bytes.readLittleEndian(UInt16.self, at: offset))
            offset += 2
            guard offset + nameLength + 2 + 32 + 32 <= bytes.count,
                  let name = String(validating: bytes[offset..<offset + nameLength], as: UTF8.self),
                  let kind = BundleRecord.Kind(rawValue: bytes[offset + nameLength]),
                  let compression = BundleRecord.Compression(rawValue: bytes[offset + nameLength + 1]) else { return nil }
            offset += nameLength + 2
            let numbers = (0..<4).compactMap { Int(exactly: bytes.readLittleEndian(UInt64.self, at: offset + $0 * 8)) }
            guard numbers.count == 4 else { return nil }
            offset += 32
            entries.append(Entry(name: name, kind: kind, recordOffset: numbers[0], payloadOffset: numbers[1],
                                 payloadLength: numbers[2], compression: compression, uncompressedSize: numbers[3],
                                 sha256: ContentHash(bytes: Array(bytes[offset..<offset + 32]))))
            offset += 32
        }
        return offset == bytes.count ? BundleIndex(entries: entries) : nil
    }

    /// Why this index cannot be trusted for a bundle whose records end at `recordsEnd` (where the
    /// index record starts), or nil: every entry must have a safe name no other entry collides
    /// with, lie wholly before `recordsEnd` without overlapping another, and declare sizes within
    /// `limits`. Checked before any entry is read, so no later arithmetic can overflow.
    package func problem(recordsEnd: Int, limits: BundleLimits) -> String? {
        for entry in entries {
            let name = "'\(entry.name)'"
            if let problem = BundleEntryName.problem(with: entry.name) { return "unsafe entry name \(name): \(problem)" }
            if entry.kind == .index { return "entry \(name) claims to be an index" }
            // The prefix is magic, header length, a header of at least 14 bytes plus the name, CRC, payload length.
            let minimumPrefix = 34 + entry.name.utf8.count, maximumPrefix = 20 + BundleRecord.maxHeaderLength
            guard entry.recordOffset < recordsEnd, entry.payloadOffset <= recordsEnd,
                  entry.payloadOffset - entry.recordOffset >= minimumPrefix,
                  entry.payloadOffset - entry.recordOffset <= maximumPrefix else {
                return "entry \(name) has record offset \(entry.recordOffset) and payload offset \(entry.payloadOffset), outside the \(recordsEnd) bytes of records"
            }
            // Four bytes of payload CRC follow the payload.
            guard recordsEnd - entry.payloadOffset >= 4, entry.payloadLength <= recordsEnd - entry.payloadOffset - 4 else {
                return "entry \(name) has a \(entry.payloadLength)-byte payload at offset \(entry.payloadOffset), past the end of the records at \(recordsEnd)"
            }
            if entry.payloadLength > limits.maxPayloadLength {
                return "entry \(name) has a \(entry.payloadLength)-byte payload, over the \(limits.maxPayloadLength)-byte limit"
            }
            switch entry.compression {
            case .stored where entry.uncompressedSize != entry.payloadLength:
                return "stored entry \(name) declares \(entry.uncompressedSize) bytes but stores \(entry.payloadLength)"
            case .xz where entry.uncompressedSize > limits.maxUncompressedSize:
                return "entry \(name) declares \(entry.uncompressedSize) bytes, over the \(limits.maxUncompressedSize)-byte limit"
            default: break
            }
        }
        // Sorted by position, each record must end (payload and its CRC) before the next starts.
        let ordered = entries.sorted { $0.recordOffset < $1.recordOffset }
        for (entry, next) in zip(ordered, ordered.dropFirst()) where entry.payloadOffset + entry.payloadLength + 4 > next.recordOffset {
            return "entries '\(entry.name)' and '\(next.name)' overlap at offset \(next.recordOffset)"
        }
        if let (first, second) = BundleEntryName.conflict(in: entries.map(\.name)) {
            return first == second ? "two entries are named '\(first)'"
                : "entries '\(first)' and '\(second)' would be the same file or folder once extracted"
        }
        return nil
    }
}

/// The fixed 32-byte footer at the very end of a bundle: "TSBNDL01", the index record's offset
/// and length, a CRC-32 of the first 24 bytes, and 4 reserved zero bytes.
public struct BundleFooter: Sendable, Equatable {
    public static let magic: [UInt8] = Array("TSBNDL01".utf8)
    public static let size = 32

    public var indexOffset: Int
    public var indexLength: Int

    package init(indexOffset: Int, indexLength: Int) {
        self.indexOffset = indexOffset
        self.indexLength = indexLength
    }

    package func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.appendLittleEndian(UInt64(indexOffset))
        bytes.appendLittleEndian(UInt64(indexLength))
        bytes.appendLittleEndian(CRC32.checksum(bytes))
        bytes.appendLittleEndian(UInt32(0))
        return bytes
    }

    /// Parses a footer; nil on a wrong magic or CRC, or an offset or length over `Int.max`.
    package static func decode(_ bytes: [UInt8]) -> BundleFooter? {
        guard bytes.count == size, bytes.starts(with: magic),
              bytes.readLittleEndian(UInt32.self, at: 24) == CRC32.checksum(Array(bytes[0..<24])) else { return nil }
        // A value over Int.max cannot be an offset in any file.
        guard let indexOffset = Int(exactly: bytes.readLittleEndian(UInt64.self, at: 8)),
              let indexLength = Int(exactly: bytes.readLittleEndian(UInt64.self, at: 16)) else { return nil }
        return BundleFooter(indexOffset: indexOffset, indexLength: indexLength)
    }
}
