@testable import BuildCache
import Foundation
import Testing
import TesseraCore

/// `RecordScanner` reads entries and packs exactly as `JSONDecoder` does, or leaves them to it.
@Suite("Cache records read without JSONDecoder")
struct RecordScannerTests {
    private static func entry(path: String, contents: [UInt8]? = nil, metadata: [UInt8] = Array("{\"a\":[1,2]}".utf8)) -> ActionEntry {
        var entry = ActionEntry(key: ContentHash.of(Array(path.utf8) + [0]), stage: "write", outputs: [
            ActionEntry.Output(path: path, sha256: ContentHash.of(Array(path.utf8)), size: 3127),
            ActionEntry.Output(path: "b/\(path)", sha256: ContentHash.of(Array("b".utf8)), size: 0),
        ], metadata: metadata)
        entry.outputs[0].contents = contents.map { Data($0) }
        return entry
    }

    /// The framed record's body decoded by `JSONDecoder` alone.
    private static func decoded<T: Decodable>(_ framed: [UInt8], as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(framed[65...]))
    }

    @Test("entries as stored locally and remotely (inline bytes, non-ASCII and escaped names) read the same as with JSONDecoder")
    func entriesMatchJSONDecoder() throws {
        let entries = [
            Self.entry(path: "variants/group15/asset0755.jpg"),
            Self.entry(path: "variants/ünïcødé 名前/a b.png", contents: Array(0...255).map(UInt8.init), metadata: []),
            Self.entry(path: "variants/quote\"and\\backslash.png", metadata: Array(repeating: 0xFF, count: 300)),
            ActionEntry(key: ContentHash.of([7]), stage: "timing", outputs: [], metadata: [1, 2, 3]),
        ]
        for entry in entries {
            let framed = try entry.serialised()
            let scanned = RecordScanner(framed[65...])
            #expect(ActionEntry.parse(framed) == entry)
            #expect(ActionEntry.parse(framed) == (try Self.decoded(framed, as: ActionEntry.self)))
            // The escaped name is the one left to JSONDecoder.
            #expect((ActionEntry.scan(scanned) != nil) == !entry.outputs.contains { $0.path.contains("\"") })
        }
    }

    @Test("a compact pack record reads the same as with JSONDecoder; damaged or unknown JSON is not read")
    func packsMatchJSONDecoder() throws {
        let results = (0..<20).map { ResultPack.Result(key: ContentHash.of([UInt8($0)]), entry: Self.entry(path: "v/\($0).png")) }
        let blobs = results.flatMap(\.entry.outputs).map { ResultPack.Blob(sha256: $0.sha256, size: $0.size) }
        let pack = ResultPack(results: results, segments: [ResultPack.Segment(sha256: ContentHash.of([9]), size: 99, blobs: blobs)])
        let framed = try pack.serialised()
        #expect(ResultPack.parse(framed) == pack)
        #expect(try Self.decoded(framed, as: ResultPack.self) == pack)
        #expect(ResultPack.scan(RecordScanner(framed[65...])) == pack)

        for text in ["{\"format\":1.5,\"results\":[],\"segments\":[]}", "{\"format\":1,\"results\":[],\"segments\":[],\"extra\":2}",
                     "{\"format\":1,\"results\":[]", "{\"format\":1,\"results\":[],\"segments\":[]} trailing"] {
            let scanner = RecordScanner(Array(text.utf8)[...])
            #expect(ResultPack.scan(scanner) == nil || !scanner.atEnd, "\(text)")
        }
    }
}
