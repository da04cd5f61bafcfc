@testable import BuildCache
import Foundation
import Testing
import TesseraCore

@Suite("Cache records written without JSONEncoder")
struct RecordWritingTests {
    private static func entry(path: String, contents: Data? = nil) -> ActionEntry {
        var output = ActionEntry.Output(path: path, sha256: ContentHash.of(Array(path.utf8)), size: 1234, contents: contents)
        output.contents = contents
        return ActionEntry(key: ContentHash.of(Array(path.utf8) + [0]), stage: "write", outputs: [output, ActionEntry.Output(path: "b/c.png", sha256: ContentHash.of([1]), size: 0, contents: nil)],
                           metadata: Array("{\"asset\":\"a/b\",\"width\":12}".utf8))
    }

    @Test("entries and packs come out as StableJSON.compact's bytes, inline bytes, non-ASCII paths and escapes included")
    func sameBytesAsJSONEncoder() throws {
        let entries = [Self.entry(path: "variants/group00/asset0001@2x.png"),
                       Self.entry(path: "variants/é ü/图片@3x.jpg", contents: Data([0, 1, 2, 255])),
                       // Needs escaping: written by JSONEncoder instead, so still the same bytes.
                       Self.entry(path: "variants/a \"quoted\" name\\x.png")]
        for entry in entries {
            #expect(try entry.compactJSON() == (try StableJSON.compact(entry)), "\(entry.outputs[0].path)")
            #expect(ActionEntry.parse(try entry.serialised()) == entry)
        }
        let pack = ResultPack(results: entries.enumerated().map { ResultPack.Result(key: ContentHash.of([UInt8($0.offset)]), entry: $0.element) },
                              segments: [ResultPack.Segment(sha256: ContentHash.of([9]), size: 10,
                                                            blobs: [ResultPack.Blob(sha256: ContentHash.of([8]), size: 10)])])
        #expect(try pack.compactJSON() == (try StableJSON.compact(pack)))
        #expect(ResultPack.parse(try pack.serialised()) == pack)
    }
}
