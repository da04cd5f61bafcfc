import Delivery
import Foundation
import Testing
import TesseraCore

@Suite("Query schema")
struct QuerySchemaTests {
    static let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/query.schema.json").path

    @Test("a query answer (with note and priorities) has exactly the keys docs/query.schema.json documents")
    func answerMatchesSchema() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.schemaPath)))
                                  as? [String: Any])
        let item = try #require((schema["$defs"] as? [String: Any])?["item"] as? [String: Any])
        let build = try SyntheticBuild()
        let answer = try DeviceQuery.answer(build.manifest, device: "iPhone16,1", tags: ["Green"])
        #expect(answer.note != nil)
        #expect(answer.bundles.contains { $0.priority != nil })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(StableJSON.encode(VersionedJSON(answer)))) as? [String: Any])
        try Self.check(json, against: schema)
        let items = try #require(json["bundles"] as? [[String: Any]])
        #expect(items.count == 3)
        for entry in items {
            try Self.check(entry, against: item)
            let categories = try #require((item["properties"] as? [String: Any])?["category"] as? [String: Any])
            #expect((categories["enum"] as? [String])?.contains(entry["category"] as? String ?? "") == true)
        }
    }

    static func check(_ object: [String: Any], against schema: [String: Any]) throws {
        let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(Set(object.keys).isSubset(of: properties), "undocumented: \(Set(object.keys).subtracting(properties))")
        #expect(required.isSubset(of: Set(object.keys)), "missing: \(required.subtracting(object.keys))")
    }
}
