/// Entity-tag comparisons for conditional requests (RFC 9110 §8.8.3, §13.1).
public enum EntityTag {
    /// The strong tag for a content digest or other opaque value: `"value"`.
    public static func strong(_ value: String) -> String { "\"\(value)\"" }

    /// `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`; `*` matches anything.
    public static func noneMatchHits(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let wanted = opaque(etag)
        for item in header.split(separator: ",") {
            let tag = item.trimmingCharacters(in: " \t")
            if tag == "*" || opaque(tag) == wanted { return true }
        }
        return false
    }

    /// `If-Range` uses the strong comparison: only the identical strong tag keeps the range; a
    /// weak tag, a date or another tag means "send everything".
    public static func ifRangeAllowsRange(_ header: String?, etag: String) -> Bool {
        guard let header else { return true }
        return header.trimmingCharacters(in: " \t") == etag && !etag.hasPrefix("W/")
    }

    private static func opaque(_ tag: String) -> String { tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }
}

extension StringProtocol {
    func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
