import Foundation
import Testing
import TesseraCore

/// Keys that cannot drift (issue 57): canonical bytes sort what JSON with sorted keys left in a
/// hash table's per-process order.
@Suite("Canonical encoding")
struct CanonicalEncodingTests {
    private enum Idiom: String, Codable { case iphone, ipad, tv, watch, mac, vision }

    private struct Settings: Encodable {
        var family: Set<String>?
        var sizes: [Idiom: Int]
        var flags: Set<Idiom>
        var name = "x"
        var scale = 2.5
    }

    /// A set with `elements` inserted in `order`, grown from `capacity`: another history gives
    /// the same value, often iterated in another order.
    private func set<T: Hashable>(_ elements: [T], capacity: Int) -> Set<T> {
        var set = Set<T>(minimumCapacity: capacity)
        for element in elements { set.insert(element) }
        return set
    }

    @Test("sets and enum-keyed dictionaries give the same bytes whatever their insertion order and capacity")
    func unorderedCollectionsAreSorted() throws {
        let words = (0..<200).map { "word\($0)" }
        let idioms: [Idiom] = [.iphone, .ipad, .tv, .watch, .mac, .vision]
        var iterated: Set<[String]> = []
        var encoded: Set<[UInt8]> = []
        for (index, capacity) in [0, 7, 300, 1000].enumerated() {
            let order = index.isMultiple(of: 2) ? words : words.reversed()
            let family = set(order, capacity: capacity)
            iterated.insert(Array(family))
            var sizes: [Idiom: Int] = Dictionary(minimumCapacity: capacity)
            for idiom in index.isMultiple(of: 2) ? idioms : idioms.reversed() { sizes[idiom] = idiom.rawValue.count }
            let value = Settings(family: family, sizes: sizes,
                                 flags: set(index.isMultiple(of: 2) ? idioms : idioms.reversed(), capacity: capacity))
            encoded.insert(try CanonicalEncoding.bytes(of: value))
        }
        // The test means something only if the sets really iterated differently.
        #expect(iterated.count > 1)
        #expect(encoded.count == 1)
    }

    @Test("the format is pinned: keyed entries in key order, scalars tagged, strings length-prefixed, sets sorted by their bytes")
    func formatIsPinned() throws {
        let value = Settings(family: ["b", "a"], sizes: [.tv: 1], flags: [], name: "é", scale: 1)
        let text = String(decoding: try CanonicalEncoding.bytes(of: value), as: UTF8.self)
        #expect(text == "{s6:family<s1:as1:b>s5:flags<>s4:names2:és5:scaled3ff0000000000000;s5:sizes<{s3:keys2:tvs5:valuei1;}>}")
    }

    @Test("different values give different bytes: boundaries, nil against absent, numbers against strings")
    func differentValuesDiffer() throws {
        struct Pair: Encodable { var a: String; var b: String }
        struct Maybe: Encodable {
            var value: Int?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(value, forKey: .value)
            }
            enum CodingKeys: String, CodingKey { case value }
        }
        #expect(try CanonicalEncoding.bytes(of: Pair(a: "ab", b: "c")) != CanonicalEncoding.bytes(of: Pair(a: "a", b: "bc")))
        #expect(try CanonicalEncoding.bytes(of: Maybe(value: nil)) != CanonicalEncoding.bytes(of: Maybe(value: 0)))
        #expect(try CanonicalEncoding.bytes(of: [1]) != CanonicalEncoding.bytes(of: ["1"]))
        #expect(try CanonicalEncoding.bytes(of: [[1], [2]]) != CanonicalEncoding.bytes(of: [[1, 2]]))
        #expect(try CanonicalEncoding.bytes(of: Set([1, 2])) != CanonicalEncoding.bytes(of: [1, 2]))
    }
}
