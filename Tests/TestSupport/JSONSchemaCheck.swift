import Foundation

/// Checks a JSON value against the subset of JSON Schema (2020-12) the checked-in schemas use:
/// `type`, `required`, `properties`, `additionalProperties: false`, `items`, `minItems`,
/// `uniqueItems`, `enum`, `pattern`, `minProperties`, `maxProperties` and local `$ref`s.
/// Any other keyword is reported, so a schema never silently checks less than it says.
public struct JSONSchemaCheck {
    private let root: [String: Any]

    public init(schemaFile: String) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: schemaFile))) as? [String: Any] ?? [:]
    }

    /// Every way `value` breaks the schema, each with its JSON path; empty when it conforms.
    public func problems(_ value: Any) -> [String] {
        check(value, root, path: "$")
    }

    private static let known: Set<String> = ["$schema", "$id", "title", "description", "$defs", "type", "required",
                                             "properties", "additionalProperties", "items", "minItems", "uniqueItems",
                                             "enum", "pattern", "minProperties", "maxProperties", "$ref"]

    private func check(_ value: Any, _ schema: [String: Any], path: String) -> [String] {
        var found = Set(schema.keys).subtracting(Self.known).sorted().map { "\(path): the checker does not know '\($0)'" }
        if let reference = schema["$ref"] as? String {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            guard let target = (root["$defs"] as? [String: Any])?[name] as? [String: Any] else { return found + ["\(path): unknown \(reference)"] }
            found += check(value, target, path: path)
        }
        if let type = schema["type"] as? String, !Self.matches(value, type) { return found + ["\(path): not a \(type)"] }
        if let choices = schema["enum"] as? [Any], !choices.contains(where: { ($0 as? NSObject)?.isEqual(value) == true }) {
            found.append("\(path): \(value) is not one of \(choices)")
        }
        if let pattern = schema["pattern"] as? String, let text = value as? String,
           text.range(of: pattern, options: .regularExpression) == nil {
            found.append("\(path): '\(text)' does not match \(pattern)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { found.append("\(path): '\(key)' is missing") }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let sub = properties[key] as? [String: Any] {
                    found += check(member, sub, path: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    found.append("\(path): '\(key)' is not allowed")
                }
            }
            if let least = schema["minProperties"] as? Int, object.count < least { found.append("\(path): fewer than \(least) keys") }
            if let most = schema["maxProperties"] as? Int, object.count > most { found.append("\(path): more than \(most) keys") }
        }
        if let array = value as? [Any] {
            if let least = schema["minItems"] as? Int, array.count < least { found.append("\(path): fewer than \(least) items") }
            if schema["uniqueItems"] as? Bool == true, Set(array.map { "\($0)" }).count != array.count {
                found.append("\(path): items repeat")
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() { found += check(item, items, path: "\(path)[\(index)]") }
            }
        }
        return found
    }

    private static func matches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": value is Bool
        case "integer", "number": value is NSNumber && !(value is Bool)
        default: false
        }
    }
}
