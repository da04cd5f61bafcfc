import TesseraCore

/// Finds references an SVG makes to anything outside itself: `href`s and CSS `url(…)`s that are
/// neither a fragment of the document (`#id`) nor inline (`data:`).
///
/// librsvg is what actually keeps them from being read (a document opened without a base file
/// resolves no relative, `file:` or `http:` URL; `SVGProcessRenderer` says why), but it skips such an
/// element silently and draws the rest. Xcode would draw the referenced image, so a render without
/// it is a misread: this scan turns it into an error that names the reference. It works on the raw
/// text, so a reference inside a comment is refused too; that errs on the side of saying so.
enum ExternalReferences {
    /// The first external reference in `bytes`, if any.
    static func first(in bytes: [UInt8]) -> String? {
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        for (marker, opening) in [(Array("href".utf8), UInt8(ascii: "=")), (Array("url(".utf8), nil)] {
            var start = 0
            while let hit = find(marker, in: lowered, from: start) {
                start = hit + marker.count
                guard let value = value(in: bytes, after: start, opening: opening) else { continue }
                let trimmed = value.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.lowercased().hasPrefix("data:") { continue }
                return String(trimmed.prefix(200))
            }
        }
        return nil
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (`EmbeddedImages` too).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index ..< index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The quoted (or, for `url(`, possibly bare) value after a marker.
    private static func value(in bytes: [UInt8], after index: Int, opening: UInt8?) -> String? {
        var cursor = index
        func skipSpace() { while cursor < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 } }
        skipSpace()
        if let opening {
            guard cursor < bytes.count, bytes[cursor] == opening else { return nil }
            cursor += 1
            skipSpace()
        }
        guard cursor < bytes.count else { return nil }
        let quote = bytes[cursor]
        let terminator: UInt8
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            terminator = quote
            cursor += 1
        } else if opening == nil {
            terminator = UInt8(ascii: ")")
        } else {
            return nil
        }
        let end = bytes[cursor...].firstIndex(of: terminator) ?? bytes.count
        return String(decoding: bytes[cursor ..< min(end, cursor + 4096)], as: UTF8.self)
    }
}
