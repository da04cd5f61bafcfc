import Foundation
import Testing
import TesseraCore

/// Keys that cannot drift (issue 57): `InputDigest` sorts what JSON with sorted keys left in a
/// hash table's per-process order.
@Suite("Input digests of unordered collections")
struct UnorderedDigestTests {
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
        var encoded: Set<ContentHash> = []
        for (index, capacity) in [0, 7, 300, 1000].enumerated() {
            let order = index.isMultiple(of: 2) ? words : words.reversed()
            let family = set(order, capacity: capacity)
            iterated.insert(Array(family))
            var sizes: [Idiom: Int] = Dictionary(minimumCapacity: capacity)
            for idiom in index.isMultiple(of: 2) ? idioms : idioms.reversed() { sizes[idiom] = idiom.rawValue.count }
            let value = Settings(family: family, sizes: sizes,
                                 flags: set(index.isMultiple(of: 2) ? idioms : idioms.reversed(), capacity: capacity))
            encoded.insert(try InputDigest.of(value))
        }
        // The test means something only if the sets really iterated differently.
        #expect(iterated.count > 1)
        #expect(encoded.count == 1)
    }

    @Test("a digest is pinned: the same in every process (each test run is a new process with a new hash seed)")
    func digestIsPinned() throws {
        let value = Settings(family: ["b", "a", "c"], sizes: [.tv: 1, .ipad: 2, .mac: 3], flags: [.vision, .iphone], name: "é", scale: 1)
        let hex = try InputDigest.of(value).hex
        #expect(hex == "4201f14b67f1f642087a7ba41e7a5406b775dbd1f68ce7797d9bd7f0bed3721d")
    }

    @Test("different values give different digests: boundaries, nil against absent, numbers against strings, a set against an array")
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
        #expect(try InputDigest.of(Pair(a: "ab", b: "c")) != InputDigest.of(Pair(a: "a", b: "bc")))
        #expect(try InputDigest.of(Maybe(value: nil)) != InputDigest.of(Maybe(value: 0)))
        #expect(try InputDigest.of([1]) != InputDigest.of(["1"]))
        #expect(try InputDigest.of([[1], [2]]) != InputDigest.of([[1, 2]]))
        #expect(try InputDigest.of(Set([1, 2])) != InputDigest.of([1, 2]))
    }
}
