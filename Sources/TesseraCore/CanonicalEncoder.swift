/// The `Encoder` behind `CanonicalEncoding`: it builds a `CanonicalNode` tree.
struct CanonicalEncoder: Encoder {
    let node: CanonicalNode
    let codingPath: [any CodingKey]
    let sendableInfo: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { sendableInfo }

    init(node: CanonicalNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.node = node
        self.codingPath = codingPath
        self.sendableInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.kind {} else { node.kind = .keyed([:]) }
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.kind {} else { node.kind = .unkeyed([]) }
        return Unkeyed(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// `value` encoded into `child`, one level down.
    func encode(_ value: any Encodable, into child: CanonicalNode, key: (any CodingKey)?) throws {
        try CanonicalEncoding.encode(value, into: child, path: codingPath + (key.map { [$0] } ?? []), userInfo: sendableInfo)
    }

    static func scalar(_ tag: Character, _ text: String) -> CanonicalNode.Kind {
        .scalar(Array("\(tag)\(text);".utf8))
    }

    static func string(_ text: String) -> CanonicalNode.Kind {
        var out: [UInt8] = []
        CanonicalNode.string(text, to: &out)
        return .scalar(out)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: CanonicalEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func child(_ key: Key) -> CanonicalNode {
            guard case .keyed(var entries) = encoder.node.kind else { preconditionFailure("keyed container lost its node") }
            let node = entries[key.stringValue] ?? CanonicalNode()
            entries[key.stringValue] = node
            encoder.node.kind = .keyed(entries)
            return node
        }

        mutating func encodeNil(forKey key: Key) throws { child(key).kind = .scalar([UInt8(ascii: "n")]) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.encode(value, into: child(key), key: key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            CanonicalEncoder(node: child(key), codingPath: codingPath + [key], userInfo: encoder.sendableInfo).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            CanonicalEncoder(node: child(key), codingPath: codingPath + [key], userInfo: encoder.sendableInfo).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            CanonicalEncoder(node: child(key), codingPath: codingPath + [key], userInfo: encoder.sendableInfo)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: CanonicalEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int {
            guard case .unkeyed(let elements) = encoder.node.kind else { return 0 }
            return elements.count
        }

        private func next() -> CanonicalNode {
            guard case .unkeyed(var elements) = encoder.node.kind else { preconditionFailure("unkeyed container lost its node") }
            let node = CanonicalNode()
            elements.append(node)
            encoder.node.kind = .unkeyed(elements)
            return node
        }

        mutating func encodeNil() throws { next().kind = .scalar([UInt8(ascii: "n")]) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value, into: next(), key: nil) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            CanonicalEncoder(node: next(), codingPath: codingPath, userInfo: encoder.sendableInfo).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            CanonicalEncoder(node: next(), codingPath: codingPath, userInfo: encoder.sendableInfo).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            CanonicalEncoder(node: next(), codingPath: codingPath, userInfo: encoder.sendableInfo)
        }
    }

    /// Scalars: a tag, the value as text (floating point as its exact bit pattern), `;`.
    private struct Single: SingleValueEncodingContainer {
        let encoder: CanonicalEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        private var node: CanonicalNode { encoder.node }

        mutating func encodeNil() throws { node.kind = .scalar([UInt8(ascii: "n")]) }
        mutating func encode(_ value: Bool) throws { node.kind = .scalar([UInt8(ascii: value ? "t" : "f")]) }
        mutating func encode(_ value: String) throws { node.kind = CanonicalEncoder.string(value) }
        mutating func encode(_ value: Double) throws { node.kind = CanonicalEncoder.scalar("d", String(value.bitPattern, radix: 16)) }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { node.kind = CanonicalEncoder.scalar("i", String(value)) }
        mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
        mutating func encode(_ value: UInt) throws { node.kind = CanonicalEncoder.scalar("i", String(value)) }
        mutating func encode(_ value: UInt8) throws { try encode(UInt(value)) }
        mutating func encode(_ value: UInt16) throws { try encode(UInt(value)) }
        mutating func encode(_ value: UInt32) throws { try encode(UInt(value)) }
        mutating func encode(_ value: UInt64) throws { try encode(UInt(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value, into: node, key: nil) }
    }
}
