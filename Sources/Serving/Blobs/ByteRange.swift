/// What a `Range` header asks of a representation `length` bytes long.
public enum RangeDecision: Sendable, Equatable {
    /// No usable range (none, another unit, or several ranges): `200` with every byte.
    case full
    /// One satisfiable range: `206` with these bytes (offsets inclusive).
    case partial(ClosedRange<Int>)
    /// Nothing satisfiable or a malformed byte range: `416` with `Content-Range: bytes */length`.
    case unsatisfiable
}

/// Parses `Range: bytes=…` the way nginx's range filter does, so both give the same answers to
/// the same requests (the live tests compare them): a header not starting with `bytes=` is
/// ignored, a malformed byte-range set is `416`, ranges past the end are dropped, ends past the
/// end are clamped, `-N` is the last N bytes. Where nginx would send `multipart/byteranges`, for
/// several ranges, Tessera sends the whole representation, which RFC 9110 allows.
public enum ByteRange {
    public static func decide(_ header: String?, length: Int) -> RangeDecision {
        guard let header else { return .full }
        let bytes = Array(header.utf8)
        // nginx reads a range only past `bytes=` and one more byte: a bare `bytes=` is ignored.
        guard bytes.count >= 7, String(decoding: bytes[0..<6], as: UTF8.self).lowercased() == "bytes=" else { return .full }
        var parser = Parser(bytes: bytes, index: 6)
        var ranges: [ClosedRange<Int>] = []
        var total = 0
        while true {
            guard let (start, end, atComma) = parser.nextRange(length: length) else { return .unsatisfiable }
            if start < end {
                ranges.append(start...(end - 1))
                total += end - start
            } else if start == 0 {
                return .full
            }
            if !atComma { break }
        }
        if ranges.isEmpty { return .unsatisfiable }
        if ranges.count > 1 || total > length { return .full }
        return .partial(ranges[0])
    }

    /// The `Content-Range` value for a partial answer or a `416`.
    public static func contentRange(_ range: ClosedRange<Int>?, length: Int) -> String {
        guard let range else { return "bytes */\(length)" }
        return "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
    }

    /// A cursor over the byte-range set; each range comes back as a half-open [start, end).
    private struct Parser {
        let bytes: [UInt8]
        var index: Int

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }
        private var isDigit: Bool { current.map { (0x30...0x39).contains($0) } ?? false }

        private mutating func skipSpaces() { while current == 0x20 { index += 1 } }

        private mutating func number() -> Int? {
            var value = 0
            while isDigit, let digit = current {
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(digit - 0x30))
                if overflow1 || overflow2 { return nil }
                value = sum
                index += 1
            }
            return value
        }

        /// Nil for a malformed range; `atComma` when another range follows.
        mutating func nextRange(length: Int) -> (Int, Int, atComma: Bool)? {
            skipSpaces()
            var start = 0
            var suffix = false
            if current == UInt8(ascii: "-") {
                suffix = true
                index += 1
            } else {
                guard isDigit, let value = number() else { return nil }
                start = value
                skipSpaces()
                guard current == UInt8(ascii: "-") else { return nil }
                index += 1
                skipSpaces()
                if current == nil || current == UInt8(ascii: ",") {
                    return finish(start, length)
                }
            }
            guard isDigit, let end = number() else { return nil }
            skipSpaces()
            guard current == nil || current == UInt8(ascii: ",") else { return nil }
            if suffix {
                return finish(end < length ? length - end : 0, length)
            }
            // A first byte after the last (`1-0`) is not an error to nginx: the range is empty,
            // and an empty range is skipped like one past the end (`decide`).
            return finish(start, end < length ? end + 1 : length)
        }

        private mutating func finish(_ start: Int, _ end: Int) -> (Int, Int, atComma: Bool) {
            let atComma = current == UInt8(ascii: ",")
            if atComma { index += 1 }
            return (start, end, atComma)
        }
    }
}
