import Foundation
import TesseraCore

/// Reads the JSON of the cache's own records (`ActionEntry`, `ResultPack`) without `JSONDecoder`.
///
/// A no-op run reads thousands of entries and a fresh clone a pack record of megabytes; on Linux
/// `JSONDecoder` spent most of that time on its own machinery. This scanner knows only what the
/// cache writes: objects, arrays, integers and strings without escapes. Anything else (an escape,
/// a float, an unknown key) makes it give up, and the caller decodes with `JSONDecoder`, so a
/// record this scanner cannot read is read as before — never read differently.
final class RecordScanner {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// True when only whitespace is left.
    var atEnd: Bool {
        skipSpace()
        return index == bytes.endIndex
    }

    /// `{ "key": value, … }`: `field` reads the value of each key and says whether it could.
    func object(_ field: (String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), field(key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// `[ value, … ]`: `element` reads each value and says whether it could.
    func array(_ element: () -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element() else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// A string's UTF-8 bytes; nil for one with an escape (left to `JSONDecoder`).
    func stringBytes() -> ArraySlice<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return bytes[start..<index]
            case UInt8(ascii: "\\"), 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    func string() -> String? {
        stringBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Base64 bytes, as `JSONEncoder` writes `Data`.
    func data() -> Data? {
        stringBytes().flatMap { Data(base64Encoded: Data($0)) }
    }

    func hash() -> ContentHash? {
        stringBytes().flatMap(ContentHash.init(hexUTF8:))
    }

    /// A JSON integer that fits an `Int`; nil for anything else (a fraction, an exponent).
    func integer() -> Int? {
        skipSpace()
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var value = 0
        while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            value = sum
            index += 1
        }
        guard index > start else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        return negative ? -value : value
    }

    private func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.endIndex, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func skipSpace() {
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
