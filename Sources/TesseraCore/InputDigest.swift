
/// The digest of an `Encodable` value, made as it is encoded: what a job's key hashes of its
/// stage's options and its input (`DeclaredInputs`).
///
/// Keys used to hash the value's JSON (sorted keys), which `JSONEncoder` builds whole, as a tree
/// and then as bytes: for the few jobs that read every asset (the gather, slice, pack and
/// manifest jobs) that was gigabytes for 100,000 assets, held at once while planning. Here each
/// container is hashed as soon as it is complete: an array feeds its elements to its own running
/// SHA-256, an object keeps only its members' short encodings or digests until it ends, then
/// hashes them sorted by key. A `Set` or a dictionary (`UnorderedEncodable`) is digested as its
/// parts' digests sorted, whatever order its hash table, seeded per process, lists them in: keys
/// cannot drift by construction. Every value is tagged with its kind and every field
/// length-prefixed, so different values cannot run together into the same bytes.
public enum InputDigest {
    /// `value`'s digest; `userInfo` reaches every `encode(to:)` (how upstreams note themselves).
    public static func of<Value: Encodable>(_ value: Value, userInfo: [CodingUserInfoKey: Any] = [:]) throws -> ContentHash {
        let encoder = DigestEncoder(codingPath: [], userInfo: userInfo)
        return ContentHash.of(try encoder.encoded(value, at: nil))
    }
}

/// One encoded value's canonical bytes: a tag and a payload for a single value, or a container's
/// tag and SHA-256.
private typealias Item = [UInt8]

private enum Tag {
    static let null = UInt8(ascii: "n"), bool = UInt8(ascii: "b"), string = UInt8(ascii: "s")
    static let integer = UInt8(ascii: "i"), real = UInt8(ascii: "d"), object = UInt8(ascii: "o"), array = UInt8(ascii: "a")
    static let unordered = UInt8(ascii: "u")
}

private func item(_ tag: UInt8, _ text: String) -> Item {
    [tag] + Array(text.utf8)
}

private func lengthPrefixed(_ bytes: [UInt8], into hasher: inout ContentHasher) {
    var length = UInt64(bytes.count).littleEndian
    withUnsafeBytes(of: &length) { hasher.update($0) }
    hasher.update(bytes)
}

/// The encoder one value is encoded into; `finish()` is its item once `encode(to:)` has returned.
private final class DigestEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    private enum Content {
        case none
        case single(Item)
        case object(ObjectBox)
        case array(ArrayBox)
    }
    private var content = Content.none

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func finish() -> Item {
        switch content {
        // An encoder asked for no container: an empty object, as JSON writes it.
        case .none: ObjectBox().finish()
        case .single(let item): item
        case .object(let box): box.finish()
        case .array(let box): box.finish()
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing) = content { box = existing } else { box = ObjectBox(); content = .object(box) }
        return KeyedEncodingContainer(ObjectContainer<Key>(box: box, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing) = content { box = existing } else { box = ArrayBox(); content = .array(box) }
        return ArrayContainer(box: box, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    fileprivate func setSingle(_ item: Item) { content = .single(item) }

    /// A child encoder's item for `value`, complete when `encode(to:)` returns.
    fileprivate func encoded<Value: Encodable>(_ value: Value, at key: (any CodingKey)?) throws -> Item {
        if let unordered = value as? any UnorderedEncodable { return try sorted(unordered, at: key) }
        let child = DigestEncoder(codingPath: key.map { codingPath + [$0] } ?? codingPath, userInfo: userInfo)
        try value.encode(to: child)
        return child.finish()
    }

    /// An unordered collection's item: its parts' items, sorted, hashed.
    private func sorted(_ collection: any UnorderedEncodable, at key: (any CodingKey)?) throws -> Item {
        var items: [Item] = []
        for part in collection.canonicalParts { items.append(try encoded(part, at: key)) }
        var hasher = ContentHasher()
        lengthPrefixed([Tag.unordered] + Array(String(items.count).utf8), into: &hasher)
        for item in items.sorted(by: { $0.lexicographicallyPrecedes($1) }) { lengthPrefixed(item, into: &hasher) }
        return [Tag.unordered] + hasher.finalize().bytes
    }

    fileprivate func child(at key: (any CodingKey)?) -> DigestEncoder {
        DigestEncoder(codingPath: key.map { codingPath + [$0] } ?? codingPath, userInfo: userInfo)
    }
}

/// An item now, or an encoder its caller is still filling (a nested container, a super encoder),
/// finished with its parent.
private enum Member {
    case done(Item)
    case pending(DigestEncoder)

    var item: Item {
        switch self {
        case .done(let item): item
        case .pending(let encoder): encoder.finish()
        }
    }
}

private final class ObjectBox {
    var members: [String: Member] = [:]

    func finish() -> Item {
        var hasher = ContentHasher()
        lengthPrefixed([Tag.object] + Array(String(members.count).utf8), into: &hasher)
        for key in members.keys.sorted() {
            lengthPrefixed(Array(key.utf8), into: &hasher)
            lengthPrefixed(members[key]!.item, into: &hasher)
        }
        return [Tag.object] + hasher.finalize().bytes
    }
}

private final class ArrayBox {
    private var hasher = ContentHasher()
    private(set) var count = 0
    /// Members from the first one still being filled on: hashed in order when the array ends.
    private var tail: [Member] = []

    init() { lengthPrefixed([Tag.array], into: &hasher) }

    func append(_ member: Member) {
        count += 1
        if tail.isEmpty, case .done(let item) = member {
            lengthPrefixed(item, into: &hasher)
        } else {
            tail.append(member)
        }
    }

    func finish() -> Item {
        var hasher = self.hasher
        for member in tail { lengthPrefixed(member.item, into: &hasher) }
        lengthPrefixed(Array(String(count).utf8), into: &hasher)
        return [Tag.array] + hasher.finalize().bytes
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let encoder: DigestEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ item: Item, _ key: Key) { box.members[key.stringValue] = .done(item) }

    mutating func encodeNil(forKey key: Key) throws { set([Tag.null], key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(item(Tag.bool, value ? "1" : "0"), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(item(Tag.string, value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(item(Tag.real, String(value.bitPattern, radix: 16)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(item(Tag.integer, String(value)), key) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        set(try encoder.encoded(value, at: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(at: key)
        box.members[key.stringValue] = .pending(child)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(at: key)
        box.members[key.stringValue] = .pending(child)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = encoder.child(at: nil)
        box.members[name] = .pending(child)
        return child
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let encoder: DigestEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { box.count }

    private func append(_ item: Item) { box.append(.done(item)) }

    mutating func encodeNil() throws { append([Tag.null]) }
    mutating func encode(_ value: Bool) throws { append(item(Tag.bool, value ? "1" : "0")) }
    mutating func encode(_ value: String) throws { append(item(Tag.string, value)) }
    mutating func encode(_ value: Double) throws { append(item(Tag.real, String(value.bitPattern, radix: 16))) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int8) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int16) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int32) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int64) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt8) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt16) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt32) throws { append(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt64) throws { append(item(Tag.integer, String(value))) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { append(try encoder.encoded(value, at: nil)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(at: nil)
        box.append(.pending(child))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(at: nil)
        box.append(.pending(child))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(at: nil)
        box.append(.pending(child))
        return child
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: DigestEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.setSingle([Tag.null]) }
    mutating func encode(_ value: Bool) throws { encoder.setSingle(item(Tag.bool, value ? "1" : "0")) }
    mutating func encode(_ value: String) throws { encoder.setSingle(item(Tag.string, value)) }
    mutating func encode(_ value: Double) throws { encoder.setSingle(item(Tag.real, String(value.bitPattern, radix: 16))) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int8) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int16) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int32) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: Int64) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt8) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.setSingle(item(Tag.integer, String(value))) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { encoder.setSingle(try encoder.encoded(value, at: nil)) }
}
