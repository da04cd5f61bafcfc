import TesseraCore

/// One framed record of a bundle (`docs/bundle-format.md`).
///
/// ```
/// magic "TSRC" | headerLength u32 | header | headerCRC u32 | payloadLength u64 | payload | payloadCRC u32
/// header: nameLength u16, name, kind u8, compression u8, uncompressedSize u64, traitsLength u16, traits
/// ```
/// All integers little-endian; CRCs are CRC-32 (zlib polynomial). Zero bytes may pad the space
/// between records (used to align stored bitmap payloads to 4096 bytes).
public struct BundleRecord: Sendable, Equatable {
    public enum Kind: UInt8, Sendable, Codable {
        case image = 1
        case readyBitmap = 2
        case data = 3
        case index = 4
    }

    public enum Compression: UInt8, Sendable, Codable {
        case stored = 0
        case xz = 1
    }

    public static let magic: [UInt8] = Array("TSRC".utf8)
    /// Hard limits a reader enforces before allocating anything.
    public static let maxHeaderLength = 64 * 1024
    public static let defaultMaxPayloadLength = BundleLimits.standard.maxPayloadLength

    public var name: String
    public var kind: Kind
    public var compression: Compression
    public var uncompressedSize: Int
    /// `key=value` pairs separated by `;` (`scale=2x;idiom=universal`), sorted by key.
    public var traits: String
    /// The payload as stored (compressed when `compression` is `.xz`).
    public var payload: [UInt8]

    public init(name: String, kind: Kind, compression: Compression, uncompressedSize: Int, traits: String,
                payload: [UInt8]) {
        self.name = name
        self.kind = kind
        self.compression = compression
        self.uncompressedSize = uncompressedSize
        self.traits = traits
        self.payload = payload
    }

    /// The payload as the asset's bytes; an xz payload declaring more than `maxSize` is refused
    /// before anything is allocated.
    public func contents(maxSize: Int = BundleLimits.standard.maxInMemorySize) throws(TesseraError) -> [UInt8] {
        switch compression {
        case .stored: payload
        case .xz: try XZ.decompress(payload, expectedSize: uncompressedSize, maxSize: maxSize)
        }
    }

    package func encodedHeader() -> [UInt8] {
        var header: [UInt8] = []
        let nameBytes = Array(name.utf8), traitBytes = Array(traits.utf8)
        header.appendLittleEndian(UInt16(nameBytes.count))
        header += nameBytes
        header.append(kind.rawValue)
        header.append(compression.rawValue)
        header.appendLittleEndian(UInt64(uncompressedSize))
        header.appendLittleEndian(UInt16(traitBytes.count))
        header += traitBytes
        return header
    }

    /// Bytes before the payload: magic, header length, header, header CRC, payload length.
    package func prefix() -> [UInt8] {
        prefix(payloadLength: payload.count)
    }

    /// The prefix of a record whose payload is streamed in afterwards.
    package func prefix(payloadLength: Int) -> [UInt8] {
        let header = encodedHeader()
        var bytes = Self.magic
        bytes.appendLittleEndian(UInt32(header.count))
        bytes += header
        bytes.appendLittleEndian(CRC32.checksum(header))
        bytes.appendLittleEndian(UInt64(payloadLength))
        return bytes
    }

    /// The whole record.
    public func encoded() -> [UInt8] {
        var bytes = prefix()
        bytes += payload
        bytes.appendLittleEndian(CRC32.checksum(payload))
        return bytes
    }

    /// Parses a header; nil when it is not well formed.
    package static func decodeHeader(_ header: ArraySlice<UInt8>) -> (name: String, kind: Kind, compression: Compression,
                                                               uncompressedSize: Int, traits: String)? {
        let bytes = Array(header)
        guard bytes.count >= 2 else { return nil }
        let nameLength = Int(bytes.readLittleEndian(UInt16.self, at: 0))
        guard bytes.count >= 2 + nameLength + 12 else { return nil }
        guard let name = String(validating: bytes[2..<2 + nameLength], as: UTF8.self),
              let kind = Kind(rawValue: bytes[2 + nameLength]),
              let compression = Compression(rawValue: bytes[3 + nameLength]) else { return nil }
        let size = bytes.readLittleEndian(UInt64.self, at: 4 + nameLength)
        let traitsLength = Int(bytes.readLittleEndian(UInt16.self, at: 12 + nameLength))
        guard bytes.count == 14 + nameLength + traitsLength, size <= UInt64(Int.max),
              let traits = String(validating: bytes[(14 + nameLength)...], as: UTF8.self) else { return nil }
        return (name, kind, compression, Int(size), traits)
    }
}
