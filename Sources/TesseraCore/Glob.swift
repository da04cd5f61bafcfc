/// Shell-style globs over `/`-separated names: `*` and `?` stay within a segment, `**` spans segments.
///
/// Matching is memoised over (pattern position, name position): each pair is decided once, so a
/// pattern of P characters against a name of N takes O(P × N) steps whatever its stars. A plain
/// backtracking matcher took 23 s for `*a*a*a*a*a*a*a*a*a*b` against a long name, four times more
/// per added `*a` (issue 39).
public struct Glob: Sendable {
    private let pattern: [Character]

    public init(_ pattern: String) { self.pattern = Array(pattern) }

    public func matches(_ name: String) -> Bool {
        let text = Array(name)
        var decided = [UInt8](repeating: 0, count: (pattern.count + 1) * (text.count + 1))
        return match(0, 0, text, &decided)
    }

    /// Whether `pattern[p...]` matches `text[t...]`; `decided` holds 1 (yes) or 2 (no) per pair.
    private func match(_ p: Int, _ t: Int, _ text: [Character], _ decided: inout [UInt8]) -> Bool {
        let slot = p * (text.count + 1) + t
        if decided[slot] != 0 { return decided[slot] == 1 }
        let result = decide(p, t, text, &decided)
        decided[slot] = result ? 1 : 2
        return result
    }

    private func decide(_ p: Int, _ t: Int, _ text: [Character], _ decided: inout [UInt8]) -> Bool {
        guard p < pattern.count else { return t == text.count }
        if pattern[p] == "*" {
            let spansSegments = p + 1 < pattern.count && pattern[p + 1] == "*"
            let rest = p + (spansSegments ? 2 : 1)
            // "**/" also matches no folder at all.
            if spansSegments, rest < pattern.count, pattern[rest] == "/", match(rest + 1, t, text, &decided) { return true }
            if match(rest, t, text, &decided) { return true }
            // The star takes one more character and stays: the same star at the next position.
            guard t < text.count, spansSegments || text[t] != "/" else { return false }
            return match(p, t + 1, text, &decided)
        }
        guard t < text.count else { return false }
        if pattern[p] == "?" ? text[t] != "/" : pattern[p] == text[t] {
            return match(p + 1, t + 1, text, &decided)
        }
        return false
    }
}
