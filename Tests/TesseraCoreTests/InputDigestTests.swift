import Testing
import TesseraCore

/// What a job's key hashes of its options and input (`InputDigest`): made as the value is
/// encoded, never as one JSON document (issue 54, item 14).
@Suite("Input digests")
struct InputDigestTests {
    private struct Record: Encodable {
        var name: String
        var scale: Int?
        var sizes: [Double]
        var parts: [String: [String]]
        var nested: [Record] = []
    }

    private func digest(_ value: some Encodable) throws -> ContentHash { try InputDigest.of(value, userInfo: [:]) }

    @Test("equal values give equal digests, whatever order a dictionary lists its keys in")
    func equalValues() throws {
        let record = Record(name: "a", scale: 2, sizes: [1.5, 2], parts: ["x": ["1"], "y": ["2", "3"]],
                            nested: [Record(name: "b", scale: nil, sizes: [], parts: [:])])
        #expect(try digest(record) == digest(record))
        var reordered: [String: [String]] = [:]
        for key in ["y", "x"] { reordered[key] = record.parts[key] }
        var again = record
        again.parts = reordered
        #expect(try digest(again) == digest(record))
    }

    @Test("any difference, however placed, gives another digest")
    func differentValues() throws {
        let base = Record(name: "ab", scale: 2, sizes: [1], parts: ["x": ["c"]])
        var variants: [Record] = []
        var changed = base
        changed.name = "a"; changed.parts = ["x": ["bc"]]; variants.append(changed)
        changed = base; changed.scale = nil; variants.append(changed)
        changed = base; changed.sizes = [1, 1]; variants.append(changed)
        changed = base; changed.sizes = [1.0000001]; variants.append(changed)
        changed = base; changed.parts = ["x": ["c"], "y": []]; variants.append(changed)
        changed = base; changed.nested = [base]; variants.append(changed)
        changed = base; changed.parts = ["xc": []]; variants.append(changed)
        let digests = try ([base] + variants).map { try digest($0) }
        #expect(Set(digests).count == digests.count)
        // A kind is part of a value: the number 1 is not the string "1", an empty array not nothing.
        #expect(try digest(1) != digest("1"))
        #expect(try digest([String]()) != digest([String: String]()))
        #expect(try digest([["a"], []]) != digest([[], ["a"]]))
    }
}
