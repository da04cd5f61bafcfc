import Crypto
import Foundation

/// A SHA-256 digest identifying content: file bytes, encoded variants, job keys.
///
/// Tessera never uses Swift's `hashValue` for identity: it is seeded per process, so it is not stable
/// across runs, and stable identities are what make builds reproducible and caches valid.
public struct ContentHash: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        precondition(bytes.count == SHA256.byteCount, "a SHA-256 digest has 32 bytes")
        self.bytes = bytes
    }

    /// The digest's bytes in one call: the synthesised conformance fed them to the hasher one at
    /// a time, which showed in profiles of cache lookups keyed by digests.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The digest of `data`.
    public static func of<D: DataProtocol>(_ data: D) -> ContentHash {
        ContentHash(bytes: Array(SHA256.hash(data: data)))
    }

    /// The digest of a file's bytes, read in chunks so memory stays small for huge files.
    public static func ofFile(at path: String) throws(TesseraError) -> ContentHash {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TesseraError(.io, file: path, reason: "cannot open the file for reading")
        }
        defer { try? handle.close() }
        var hasher = ContentHasher()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hasher.update($0) }
            }
        } catch {
            throw TesseraError(.io, file: path, reason: "read failed: \(error.localizedDescription)")
        }
        return hasher.finalize()
    }

    /// Lower-case hexadecimal, 64 characters.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    public static func < (lhs: ContentHash, rhs: ContentHash) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = ContentHash(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a 64-digit SHA-256 hex string"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// Parses 64 hexadecimal digits.
    public init?(hex: String) {
        self.init(hexUTF8: Array(hex.utf8)[...])
    }

    /// From 64 lowercase or uppercase hex digits given as UTF-8 bytes (a field of a larger text).
    public init?(hexUTF8 utf8: ArraySlice<UInt8>) {
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for index in stride(from: utf8.startIndex, to: utf8.endIndex, by: 2) {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Builds a `ContentHash` over a sequence of fields, each length-prefixed so that no two different
/// field lists can produce the same byte stream ("ab","c" vs "a","bc").
///
/// The fields are gathered and hashed in one pass at the end: a job key is a dozen short fields,
/// and feeding SHA-256 two small updates per field cost more than the hashing itself.
public struct StableHasher {
    private var buffer: [UInt8] = []

    public init() {
        buffer.reserveCapacity(256)
    }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ value: Int) {
        combine(String(value))
    }

    public mutating func combine(_ hash: ContentHash) {
        combine(bytes: hash.bytes)
    }

    public mutating func combine(bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }

    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var length = UInt64(bytes.count).littleEndian
        withUnsafeBytes(of: &length) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: bytes)
    }

    public func finalize() -> ContentHash {
        ContentHash.of(buffer)
    }
}
