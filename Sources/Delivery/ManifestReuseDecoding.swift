import Foundation
import TesseraCore

extension Manifest {
    /// Decodes `data` as `decode(_:source:)` does, taking from `held` (decoded from exactly
    /// `heldBytes`) every element of `assets`, `data`, `bundles` and `objects` whose JSON is byte
    /// for byte one of `heldBytes`' elements of the same list; only the others are decoded.
    ///
    /// Why: a device updating decodes the whole new manifest before it uses it, and with 5,000
    /// assets that was half the update's CPU time (`Benchmarks/updates.sh`, G4), although a build
    /// that changed one image changes a handful of elements. The result is the manifest that
    /// decoding `data` whole gives (an element's value does not depend on where it stands), checked
    /// the same way (version, `violation()` over all of it). Anything this reading does not expect
    /// (a top-level key written twice or with an escape, a list that is not an array, JSON it
    /// cannot split) makes it decode `data` whole, so what it accepts is never more than that.
    public static func decode(_ data: Data, source: String, reusing held: Manifest, decodedFrom heldBytes: Data) throws(TesseraError) -> Manifest {
        guard data.count <= ManifestLimits.maxBytes, let manifest = try reusingDecode(data, source: source, held: held, heldBytes: heldBytes) else {
            return try decode(data, source: source)
        }
        return try checked(manifest, source: source)
    }

    /// The manifest read element by element, or nil when `data` or `heldBytes` is not laid out as
    /// `ManifestLayout` reads (then the caller decodes whole).
    private static func reusingDecode(_ data: Data, source: String, held: Manifest, heldBytes: Data) throws(TesseraError) -> Manifest? {
        do {
            return try data.withUnsafeBytes { new -> Manifest? in
                try heldBytes.withUnsafeBytes { old -> Manifest? in
                    guard let newLayout = ManifestLayout(new), let oldLayout = ManifestLayout(old) else { return nil }
                    let decoder = JSONDecoder()
                    var manifest = try decoder.decode(Manifest.self, from: newLayout.skeleton(of: new))
                    func list<T: Decodable>(_ key: String, _ held: [T]?) throws -> [T]? {
                        guard let list = newLayout.lists[key] else { return nil }
                        return try ManifestLayout.decode(T.self, list, in: new, reusing: held, at: oldLayout.lists[key]?.elements, in: old,
                                                         decoder: decoder)
                    }
                    if let assets = try list("assets", held.assets) { manifest.assets = assets }
                    if let entries = try list("data", held.data) { manifest.data = entries }
                    if let bundles = try list("bundles", held.bundles) { manifest.bundles = bundles }
                    if let objects = try list("objects", held.objects) { manifest.objects = objects }
                    return manifest
                }
            }
        } catch {
            throw TesseraError(.invalidInput, file: source, origin: .manifest, reason: "not a Tessera manifest: \(error)")
        }
    }
}

/// Where a manifest's top-level members and the elements of its large lists lie in its bytes,
/// found by a scan that follows strings and brackets (no values are built), with a hash of each
/// element's bytes to find it in another manifest.
struct ManifestLayout {
    /// The lists read element by element: the ones that grow with the catalog.
    static let listKeys: Set<String> = ["assets", "data", "bundles", "objects"]

    struct Element {
        var range: Range<Int>
        var hash: Int
    }

    struct List {
        /// The array, its brackets included.
        var range: Range<Int>
        var elements: [Element]
    }

    private(set) var lists: [String: List] = [:]

    /// Nil when `bytes` is not one JSON object whose members this scan can split, or names a key
    /// twice or with an escape (JSONDecoder would settle which one counts; the whole decode does).
    init?(_ bytes: UnsafeRawBufferPointer) {
        var scanner = Scanner(bytes: bytes)
        var keys: Set<String> = []
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "}")) {
            while true {
                scanner.skipSpace()
                guard let keyRange = scanner.string() else { return nil }
                let rawKey = bytes[(keyRange.lowerBound + 1)..<(keyRange.upperBound - 1)]
                guard !rawKey.contains(UInt8(ascii: "\\")), let key = String(bytes: rawKey, encoding: .utf8),
                      keys.insert(key).inserted else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                scanner.skipSpace()
                let start = scanner.index
                if Self.listKeys.contains(key), scanner.peek == UInt8(ascii: "[") {
                    guard let elements = scanner.arrayElements() else { return nil }
                    lists[key] = List(range: start..<scanner.index, elements: elements.map { range in
                        var hasher = Hasher()
                        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
                        return Element(range: range, hash: hasher.finalize())
                    })
                } else {
                    guard scanner.value() != nil else { return nil }
                }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        scanner.skipSpace()
        guard scanner.index == bytes.count else { return nil }
    }

    /// The bytes with every list's array emptied (`[]`): the rest of the manifest, small, for JSONDecoder.
    func skeleton(of bytes: UnsafeRawBufferPointer) -> Data {
        var skeleton = Data()
        var position = 0
        for range in lists.values.map(\.range).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            skeleton.append(Self.data(bytes, position..<range.lowerBound))
            skeleton.append(contentsOf: Array("[]".utf8))
            position = range.upperBound
        }
        skeleton.append(Self.data(bytes, position..<bytes.count))
        return skeleton
    }

    /// `list` of `new` as `T`s: each element whose bytes are one of `heldElements` in `old` is that
    /// element of `held` (decoded from those very bytes), the others decoded alone; the whole
    /// array at once when most are new (one decode costs less than many small ones).
    static func decode<T: Decodable>(_ type: T.Type, _ list: List, in new: UnsafeRawBufferPointer, reusing held: [T]?,
                                     at heldElements: [Element]?, in old: UnsafeRawBufferPointer, decoder: JSONDecoder) throws -> [T] {
        var byHash: [Int: [Int]] = [:]
        // Only when the held list is the one those elements were decoded into, index for index.
        if let held, let heldElements, held.count == heldElements.count {
            for (index, element) in heldElements.enumerated() { byHash[element.hash, default: []].append(index) }
        }
        func heldIndex(of element: Element) -> Int? {
            let bytes = UnsafeRawBufferPointer(rebasing: new[element.range])
            return byHash[element.hash]?.first { index in
                let candidate = heldElements![index].range
                return candidate.count == bytes.count && memcmp(old.baseAddress! + candidate.lowerBound, bytes.baseAddress!, bytes.count) == 0
            }
        }
        let found = list.elements.map(heldIndex(of:))
        if found.count(where: { $0 == nil }) * 2 > found.count {
            return try decoder.decode([T].self, from: data(new, list.range))
        }
        return try zip(list.elements, found).map { element, index in
            if let index { return held![index] }
            return try decoder.decode(T.self, from: data(new, element.range))
        }
    }

    /// A copy of `range` of `bytes`.
    static func data(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Data {
        range.isEmpty ? Data() : Data(bytes: bytes.baseAddress! + range.lowerBound, count: range.count)
    }

    /// A cursor over JSON bytes that finds where values end: strings (with escapes) and nested
    /// arrays and objects, brackets matched; scalars up to the next delimiter. It checks structure
    /// only as far as finding ends needs: whatever it passes over is decoded by JSONDecoder or is
    /// byte for byte what JSONDecoder already accepted.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

        mutating func skipSpace() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// A string starting here (its quotes included).
        mutating func string() -> Range<Int>? {
            let start = index
            guard take(UInt8(ascii: "\"")) else { return nil }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): index += 1; return start..<index
                default: index += 1
                }
            }
            return nil
        }

        /// Any value starting here.
        mutating func value() -> Range<Int>? {
            let start = index
            guard let first = peek else { return nil }
            switch first {
            case UInt8(ascii: "\""):
                return string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var open: [UInt8] = []
                while index < bytes.count {
                    let byte = bytes[index]
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        open.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        guard open.popLast() == byte else { return nil }
                        if open.isEmpty { index += 1; return start..<index }
                    default:
                        break
                    }
                    index += 1
                }
                return nil
            default:
                while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"), !Self.isSpace(byte) {
                    index += 1
                }
                return index > start ? start..<index : nil
            }
        }

        /// The elements of the array starting here; the cursor ends after its `]`.
        mutating func arrayElements() -> [Range<Int>]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var elements: [Range<Int>] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return elements }
            while true {
                skipSpace()
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "]")) ? elements : nil
            }
        }
    }
}
