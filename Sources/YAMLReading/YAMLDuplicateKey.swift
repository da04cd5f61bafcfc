import Yams

/// Finds where a duplicated mapping key repeats. Yams refuses a mapping with a repeated key but
/// names only the first occurrence, and people fix the line they added last.
public enum YAMLDuplicateKey {
    /// The line and column of the next `key:` at the same indentation as the one at `first`, in
    /// the same block mapping; nil when there is none (a flow mapping like `{a: 1, a: 2}`).
    public static func repeatPosition(of key: String, firstAt first: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = first.column - 1
        var index = first.line  // 0-based: the line after the first occurrence
        while index < lines.count {
            let line = lines[index]
            let content = line.drop { $0 == " " }
            let lineIndent = line.count - content.count
            index += 1
            if content.isEmpty || content.hasPrefix("#") { continue }
            // A line less indented ends the mapping the key belongs to.
            if lineIndent < indent { return nil }
            guard lineIndent == indent else { continue }
            for spelling in [key, "\"\(key)\"", "'\(key)'"] where content.hasPrefix(spelling) {
                let rest = content.dropFirst(spelling.count).drop { $0 == " " }
                if rest.hasPrefix(":") { return (index, indent + 1) }
            }
        }
        return nil
    }
}
