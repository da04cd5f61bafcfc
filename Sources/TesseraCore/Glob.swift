/// Shell-style globs over `/`-separated names: `*` and `?` stay within a segment, `**` spans segments.
public struct Glob: Sendable {
    private let pattern: [Character]

    public init(_ pattern: String) { self.pattern = Array(pattern) }

    public func matches(_ name: String) -> Bool {
        Self.match(pattern[...], Array(name)[...])
    }

    private static func match(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        if head == "*" {
            let spansSegments = pattern.dropFirst().first == "*"
            var rest = pattern.dropFirst(spansSegments ? 2 : 1)
            if spansSegments, rest.first == "/" {
                // "**/" also matches no folder at all.
                if match(rest.dropFirst(), text) { return true }
                rest = pattern.dropFirst(2)
            }
            var index = text.startIndex
            while true {
                if match(rest, text[index...]) { return true }
                guard index < text.endIndex, spansSegments || text[index] != "/" else { return false }
                index += 1
            }
        }
        guard let character = text.first else { return false }
        if head == "?" ? character != "/" : head == character {
            return match(pattern.dropFirst(), text.dropFirst())
        }
        return false
    }
}
