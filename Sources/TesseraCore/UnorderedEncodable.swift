/// A collection whose iteration order is not part of its value: `InputDigest` digests its parts
/// sorted, so a `Set` or a dictionary anywhere in a key's input gives the same key in every
/// process. (JSON with sorted keys sorted only keyed containers: a `Set`, or a dictionary whose
/// key is an enum, went in the order of a hash table seeded per process, and stage authors sorted
/// such fields by hand; a field added without that drifted silently.)
public protocol UnorderedEncodable {
    /// The elements (or key–value pairs) in any order, each digested on its own.
    var canonicalParts: [any Encodable] { get }
}

extension Set: UnorderedEncodable where Element: Encodable {
    public var canonicalParts: [any Encodable] { map { $0 } }
}

extension Dictionary: UnorderedEncodable where Key: Encodable, Value: Encodable {
    public var canonicalParts: [any Encodable] { map { UnorderedPair(key: $0.key, value: $0.value) } }
}

/// One entry of a dictionary, digested as an object of its key and value.
private struct UnorderedPair<Key: Encodable, Value: Encodable>: Encodable {
    let key: Key
    let value: Value
}
