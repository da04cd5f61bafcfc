#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an HTTP/1 request head straight from a connection's bytes: enough to answer a bundle
/// request without NIO's HTTP/1 decoder (`BundleConnectionHandler`), and to know where any other
/// request ends, so that the connection comes back to that path once the other request is answered.
///
/// Strict on purpose: whatever it is not sure of (a chunked body, an upgrade, folded or malformed
/// lines, a version other than 1.0/1.1, a head over `headLimit`) is `.unframed`, and NIO's decoder
/// takes the connection from there and answers it as it always did.
enum RequestHeadScan {
    enum Outcome: Equatable {
        /// The head has not all arrived yet.
        case incomplete
        /// An empty line before a request line, which servers ignore (RFC 9112 §2.2): its length.
        case emptyLine(length: Int)
        /// `GET`/`HEAD /b/<64 hex>.tsb` or `/o/<64 hex>` (a query allowed) with no body.
        case bundle(BundleRequest, headLength: Int)
        /// Any other request whose end is known: its head's length, its body's (`Content-Length`),
        /// and whether the connection stays open after it (HTTP/1.0 or 1.1 rules, `Connection`).
        case other(headLength: Int, bodyLength: Int, keepsAlive: Bool)
        /// A request nginx refuses outright, answered the same way here (then the connection
        /// closes): CONNECT (400) and a `Transfer-Encoding` other than `chunked` (501). NIO's
        /// decoder answered the first with a 404 and stopped reading, the second twice (200, 400).
        case refused(status: Int, headLength: Int)
        /// A request this reader does not frame.
        case unframed
    }

    /// Where each `Upgrade` field line of a framed head lies (its CR LF included): the handler
    /// passes the head on without them. A server may ignore an upgrade (RFC 9110 §7.8), and nginx
    /// does; NIO's decoder stopped reading the connection after one.
    static func upgradeLines(in head: UnsafeRawBufferPointer) -> [Range<Int>] {
        guard let base = head.baseAddress else { return [] }
        var lines = Lines(head)
        _ = lines.next()
        var ranges: [Range<Int>] = []
        while let line = lines.next(), let lineBase = line.baseAddress {
            guard line.count >= 8, Fields.named(UnsafeRawBufferPointer(rebasing: line[0..<7]), "upgrade"), line[7] == UInt8(ascii: ":") else { continue }
            let start = base.distance(to: lineBase)
            ranges.append(start..<(start + line.count + 2))
        }
        return ranges
    }

    /// Longer heads go to NIO's decoder, which holds them to its own limits.
    static let headLimit = 16 << 10

    static func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let first = bytes.first else { return .incomplete }
        if first == 13 {
            guard bytes.count >= 2 else { return .incomplete }
            return bytes[1] == 10 ? .emptyLine(length: 2) : .unframed
        }
        // A request line starts with a method token; anything else (TLS, say) is not ours to judge.
        guard isToken(first) else { return .unframed }
        guard let headEnd = findHeadEnd(in: bytes, limit: headLimit) else {
            // A line ended by a bare LF never makes a CR LF CR LF: NIO's decoder answers such a
            // request (as nginx does); waiting for the end of its head would wait forever.
            if hasBareLineFeed(in: bytes, limit: headLimit) { return .unframed }
            // Judged on the first `headLimit + 4` bytes only, however the head was split into reads.
            return bytes.count >= headLimit + 4 ? .unframed : .incomplete
        }
        let head = UnsafeRawBufferPointer(rebasing: bytes[0..<(headEnd + 2)])  // every line with its CRLF
        var lines = Lines(head)
        guard let requestLine = lines.next(), let start = RequestLine(requestLine) else { return .unframed }
        var fields = Fields()
        while let line = lines.next() {
            guard fields.add(line) else { return .unframed }
        }
        guard lines.isWellFormed else { return .unframed }
        let headLength = headEnd + 4
        if start.isConnect { return .refused(status: 400, headLength: headLength) }
        if let encoding = fields.transferEncoding, Substring(encoding).trimmingSpaces.lowercased() != "chunked" {
            return .refused(status: 501, headLength: headLength)
        }
        guard !fields.hasTransferEncoding, let bodyLength = fields.contentLength else { return .unframed }
        if bodyLength == 0, start.isBundleMethod, let (hex, route) = start.blobName {
            return .bundle(BundleRequest(isHead: start.isHead, hex: hex, route: route, isHTTP10: start.isHTTP10,
                                         keepsAlive: fields.keepsAlive(http10: start.isHTTP10),
                                         range: fields.range, ifNoneMatch: fields.ifNoneMatch, ifRange: fields.ifRange),
                           headLength: headLength)
        }
        // An upgrade is ignored, as nginx ignores it: the handler drops the `Upgrade` lines
        // (`upgradeLines`) before NIO's decoder, which would otherwise stop parsing after it.
        return .other(headLength: headLength, bodyLength: bodyLength, keepsAlive: fields.keepsAlive(http10: start.isHTTP10))
    }

    /// The offset of the first CR LF CR LF within the first `limit + 4` bytes.
    private static func findHeadEnd(in bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let length = min(bytes.count, limit + 4)
        guard length >= 4, let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset + 4 <= length {
            guard let found = memchr(base + offset, 13, length - 3 - offset) else { return nil }
            let index = base.distance(to: UnsafeRawPointer(found))
            if bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
            offset = index + 1
        }
        return nil
    }

    /// Whether an LF not preceded by a CR is within the first `limit + 4` bytes.
    private static func hasBareLineFeed(in bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        let length = min(bytes.count, limit + 4)
        guard length > 0, let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < length, let found = memchr(base + offset, 10, length - offset) {
            let index = base.distance(to: UnsafeRawPointer(found))
            if index == 0 || bytes[index - 1] != 13 { return true }
            offset = index + 1
        }
        return false
    }

    /// tchar (RFC 9110 §5.6.2).
    static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The CRLF-ended lines of a head.
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// False once a line held a bare CR or LF.
        private(set) var isWellFormed = true

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func next() -> UnsafeRawBufferPointer? {
            var index = offset
            while index + 1 < bytes.count {
                let byte = bytes[index]
                if byte == 13 {
                    guard bytes[index + 1] == 10 else {
                        isWellFormed = false
                        return nil
                    }
                    let line = UnsafeRawBufferPointer(rebasing: bytes[offset..<index])
                    offset = index + 2
                    return line
                }
                if byte == 10 {
                    isWellFormed = false
                    return nil
                }
                index += 1
            }
            return nil
        }
    }

    /// `METHOD SP target SP HTTP/1.x`.
    private struct RequestLine {
        var isBundleMethod = false
        var isHead = false
        var isConnect = false
        var isHTTP10 = false
        /// The digest's hex digits when the target is `/b/<64 lower-case hex>.tsb` or
        /// `/o/<64 lower-case hex>`, with or without a query, and which of the two.
        var blobName: (hex: String, route: BlobRoute)?

        init?(_ line: UnsafeRawBufferPointer) {
            guard let firstSpace = line.firstIndex(of: 32), firstSpace > 0,
                  line[0..<firstSpace].allSatisfy(RequestHeadScan.isToken) else { return nil }
            let rest = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)...])
            guard let secondSpace = rest.firstIndex(of: 32), secondSpace > 0 else { return nil }
            let target = UnsafeRawBufferPointer(rebasing: rest[0..<secondSpace])
            let version = UnsafeRawBufferPointer(rebasing: rest[(secondSpace + 1)...])
            guard target.allSatisfy({ (0x21...0x7e).contains($0) }) else { return nil }
            guard version.count == 8, version.starts(with: "HTTP/1.".utf8), version[7] == 0x30 || version[7] == 0x31 else {
                return nil
            }
            isHTTP10 = version[7] == 0x30
            let method = UnsafeRawBufferPointer(rebasing: line[0..<firstSpace])
            isHead = method.elementsEqual("HEAD".utf8)
            isBundleMethod = isHead || method.elementsEqual("GET".utf8)
            isConnect = method.elementsEqual("CONNECT".utf8)
            blobName = Self.blobName(target)
        }

        private static func blobName(_ target: UnsafeRawBufferPointer) -> (hex: String, route: BlobRoute)? {
            let prefix = 3, digits = 64  // "/b/" or "/o/", the digest
            guard target.count >= prefix + digits else { return nil }
            let route: BlobRoute
            if target.starts(with: "/b/".utf8) {
                route = .bundle
            } else if target.starts(with: "/o/".utf8) {
                route = .object
            } else {
                return nil
            }
            let hex = UnsafeRawBufferPointer(rebasing: target[prefix..<(prefix + digits)])
            guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
            let tail = UnsafeRawBufferPointer(rebasing: target[(prefix + digits)...])
            let suffix = route.suffix.utf8.count
            guard tail.starts(with: route.suffix.utf8), tail.count == suffix || tail[suffix] == UInt8(ascii: "?") else { return nil }
            return (String(decoding: hex, as: UTF8.self), route)
        }
    }

    /// The header fields that frame a request or shape a bundle's answer.
    private struct Fields {
        var range: String?
        var ifNoneMatch: String?
        var ifRange: String?
        var connection: String?
        var hasTransferEncoding = false
        /// Every `Transfer-Encoding` value, joined.
        var transferEncoding: String?
        var hasUpgrade = false
        /// 0 when absent; nil when not one plain number (or several that differ).
        var contentLength: Int? = 0
        private var sawContentLength = false

        /// False for a line that is not `name: value` (a folded line, a space before the colon, a control byte).
        mutating func add(_ line: UnsafeRawBufferPointer) -> Bool {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                  line[0..<colon].allSatisfy(RequestHeadScan.isToken) else { return false }
            var start = colon + 1, end = line.count
            while start < end, line[start] == 32 || line[start] == 9 { start += 1 }
            while end > start, line[end - 1] == 32 || line[end - 1] == 9 { end -= 1 }
            let value = UnsafeRawBufferPointer(rebasing: line[start..<end])
            guard value.allSatisfy({ $0 >= 32 ? $0 != 127 : $0 == 9 }) else { return false }
            let name = UnsafeRawBufferPointer(rebasing: line[0..<colon])
            switch name.count {
            // The first `Range` field only, as nginx reads it (joined, two made a malformed set).
            case 5 where Self.named(name, "range"): if range == nil { range = String(decoding: value, as: UTF8.self) }
            case 7 where Self.named(name, "upgrade"): hasUpgrade = true
            case 8 where Self.named(name, "if-range"): Self.join(&ifRange, value)
            case 10 where Self.named(name, "connection"): Self.join(&connection, value)
            case 13 where Self.named(name, "if-none-match"): Self.join(&ifNoneMatch, value)
            case 14 where Self.named(name, "content-length"): addContentLength(value)
            // llhttp reads it as `Connection`; so does this scan, to agree on keep-alive.
            case 16 where Self.named(name, "proxy-connection"): Self.join(&connection, value)
            case 17 where Self.named(name, "transfer-encoding"):
                hasTransferEncoding = true
                Self.join(&transferEncoding, value)
            default: break
            }
            return true
        }

        private mutating func addContentLength(_ value: UnsafeRawBufferPointer) {
            var number = 0
            guard !value.isEmpty, value.count <= 18, value.allSatisfy({ (0x30...0x39).contains($0) }) else {
                contentLength = nil
                return
            }
            for digit in value { number = number * 10 + Int(digit - 0x30) }
            if sawContentLength, contentLength != number { contentLength = nil }
            if !sawContentLength { contentLength = number }
            sawContentLength = true
        }

        func keepsAlive(http10: Bool) -> Bool {
            var close = false, keepAlive = false
            for token in (connection ?? "").split(separator: ",") {
                let word = token.trimmingSpaces.lowercased()
                if word == "close" { close = true }
                if word == "keep-alive" { keepAlive = true }
            }
            return !close && (!http10 || keepAlive)
        }

        /// Whether the field name is `lowercase`, in any case.
        static func named(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
            guard name.count == lowercase.utf8CodeUnitCount else { return false }
            let expected = lowercase.utf8Start
            for index in 0..<name.count where name[index] | 0x20 != expected[index] { return false }
            return true
        }

        private static func join(_ field: inout String?, _ value: UnsafeRawBufferPointer) {
            let text = String(decoding: value, as: UTF8.self)
            field = field.map { "\($0), \(text)" } ?? text
        }
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
