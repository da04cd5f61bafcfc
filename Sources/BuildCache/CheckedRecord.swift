import Foundation
import TesseraCore

/// The framing of every record the cache keeps as JSON (`ActionEntry`, `ResultPack`): a line with
/// the SHA-256 of the body, then the body, so a damaged record is recognised before it is believed.
enum CheckedRecord {
    /// `<sha256 hex of the JSON>\n<JSON>`; `compact` leaves out the indentation of `StableJSON`
    /// (for records only machines read, megabytes long).
    static func frame<T: Encodable>(_ value: T, compact: Bool = false) throws(TesseraError) -> [UInt8] {
        frame(body: compact ? try StableJSON.compact(value) : try StableJSON.encode(value))
    }

    /// `<sha256 hex of body>\n<body>`.
    static func frame(body: [UInt8]) -> [UInt8] {
        Array((ContentHash.of(body).hex + "\n").utf8) + body
    }

    /// The body, or nil when the bytes are not a complete, undamaged record.
    static func body(of bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > 65, bytes[64] == UInt8(ascii: "\n"),
              let expected = ContentHash(hexUTF8: bytes[0..<64]) else { return nil }
        let body = bytes[65...]
        var hasher = ContentHasher()
        body.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize() == expected ? body : nil
    }

    /// The decoded record, or nil when the bytes are not complete and undamaged. `scan` reads the
    /// body quickly (`RecordScanner`); what it cannot read is decoded by `JSONDecoder`.
    static func open<T: Decodable>(_ bytes: [UInt8], as type: T.Type, scan: (RecordScanner) -> T? = { _ in nil }) -> T? {
        guard let body = body(of: bytes) else { return nil }
        let scanner = RecordScanner(body)
        if let value = scan(scanner), scanner.atEnd { return value }
        return try? JSONDecoder().decode(T.self, from: Data(body))
    }
}
