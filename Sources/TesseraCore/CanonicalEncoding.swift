/// The bytes a value's `Encodable` conformance gives, the same in every process: what keys and
/// fingerprints hash (a job's input and options, a pipeline definition).
///
/// JSON with sorted keys was not enough: it sorts only the keys of keyed containers, so a `Set`,
/// or a dictionary whose key is not `String` or `Int` (an enum), encoded its elements in the
/// order of a hash table seeded per process, and two processes derived two keys for one job;
/// stage authors sorted such fields by hand, and a field added without that drifted silently.
/// Here every keyed container is written in key order and every unordered collection
/// (`UnorderedEncodable`: `Set`, `Dictionary`) in the order of its elements' own canonical bytes,
/// by construction. The format is self-delimiting (length-prefixed strings, bracketed
/// containers), so two different values never give the same bytes.
public enum CanonicalEncoding {
    /// `value`'s canonical bytes; `userInfo` reaches every `encode(to:)` as `Encoder.userInfo`.
    public static func bytes<T: Encodable>(of value: T, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> [UInt8] {
        let root = CanonicalNode()
        try encode(value, into: root, path: [], userInfo: userInfo)
        var out: [UInt8] = []
        root.write(to: &out)
        return out
    }

    static func encode(_ value: any Encodable, into node: CanonicalNode, path: [any CodingKey],
                       userInfo: [CodingUserInfoKey: any Sendable]) throws {
        if let unordered = value as? any UnorderedEncodable {
            var parts: [[UInt8]] = []
            for part in unordered.canonicalParts {
                parts.append(try bytes(of: part, userInfo: userInfo))
            }
            node.kind = .unordered(parts.sorted { $0.lexicographicallyPrecedes($1) })
            return
        }
        try value.encode(to: CanonicalEncoder(node: node, codingPath: path, userInfo: userInfo))
    }
}

/// A collection whose iteration order is not part of its value: canonical bytes sort its parts.
public protocol UnorderedEncodable {
    /// The elements (or key–value pairs) in any order, each encoded on its own.
    var canonicalParts: [any Encodable] { get }
}

extension Set: UnorderedEncodable where Element: Encodable {
    public var canonicalParts: [any Encodable] { map { $0 } }
}

extension Dictionary: UnorderedEncodable where Key: Encodable, Value: Encodable {
    public var canonicalParts: [any Encodable] { map { CanonicalPair(key: $0.key, value: $0.value) } }
}

private struct CanonicalPair<Key: Encodable, Value: Encodable>: Encodable {
    let key: Key
    let value: Value
}

/// One value of the tree an encoding builds: containers may be written to in any order, so the
/// bytes are made at the end.
final class CanonicalNode {
    enum Kind {
        case empty
        case scalar([UInt8])
        case keyed([String: CanonicalNode])
        case unkeyed([CanonicalNode])
        case unordered([[UInt8]])
    }

    var kind = Kind.empty

    func write(to out: inout [UInt8]) {
        switch kind {
        case .empty: out.append(UInt8(ascii: "_"))
        case .scalar(let bytes): out += bytes
        case .keyed(let entries):
            out.append(UInt8(ascii: "{"))
            for key in entries.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                CanonicalNode.string(key, to: &out)
                entries[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .unkeyed(let elements):
            out.append(UInt8(ascii: "["))
            for element in elements { element.write(to: &out) }
            out.append(UInt8(ascii: "]"))
        case .unordered(let parts):
            out.append(UInt8(ascii: "<"))
            for part in parts { out += part }
            out.append(UInt8(ascii: ">"))
        }
    }

    static func string(_ text: String, to out: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        out += Array("s\(utf8.count):".utf8) + utf8
    }
}
