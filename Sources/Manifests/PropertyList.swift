import Foundation

/// A minimal XML property-list writer with sorted keys, so Apple's manifests come out byte-identical
/// for identical content (Foundation's writer does not promise an order on every platform).
public indirect enum PropertyList: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case array([PropertyList])
    case dictionary([String: PropertyList])

    /// The whole document.
    public func xml() -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        write(into: &out, indent: "")
        out += "</plist>\n"
        return out
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .string(let value): out += "\(indent)<string>\(Self.escape(value))</string>\n"
        case .integer(let value): out += "\(indent)<integer>\(value)</integer>\n"
        case .real(let value): out += "\(indent)<real>\(value)</real>\n"
        case .bool(let value): out += "\(indent)<\(value ? "true" : "false")/>\n"
        case .array(let items):
            out += "\(indent)<array>\n"
            for item in items { item.write(into: &out, indent: indent + "\t") }
            out += "\(indent)</array>\n"
        case .dictionary(let entries):
            out += "\(indent)<dict>\n"
            for key in entries.keys.sorted() {
                out += "\(indent)\t<key>\(Self.escape(key))</key>\n"
                entries[key]!.write(into: &out, indent: indent + "\t")
            }
            out += "\(indent)</dict>\n"
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
