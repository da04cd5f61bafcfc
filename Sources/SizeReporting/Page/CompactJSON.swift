/// JSON written by hand for the report page's embedded data: arrays of numbers and strings,
/// which Codable would write as keyed objects many times larger. Strings are escaped so the text
/// can sit inside an HTML `<script>` element (`<`, `>` and `&` as `\u` escapes).
struct CompactJSON {
    private(set) var text = ""

    mutating func raw(_ fragment: String) { text += fragment }

    mutating func number(_ value: Int) { text += String(value) }

    mutating func string(_ value: String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                text += "\\u" + hex4(scalar.value)
            default:
                if scalar.value < 0x20 { text += "\\u" + hex4(scalar.value) } else { text.unicodeScalars.append(scalar) }
            }
        }
        text += "\""
    }

    /// `[a,b,…]`, each element written by `element`.
    mutating func array<Element>(_ elements: some Sequence<Element>, _ element: (inout CompactJSON, Element) -> Void) {
        text += "["
        var first = true
        for value in elements {
            if !first { text += "," }
            first = false
            element(&self, value)
        }
        text += "]"
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
