import Testing
import TesseraCore

/// A streamed list made a part at a time, parts of any length, empty ones too (the slice job's
/// rows, made a few hundred assets at a time; issue 54, item 14): the same bytes as one pass.
@Suite("Streamed JSON in parts")
struct StreamedJSONPartsTests {
    private struct Row: Encodable, Equatable {
        let name: String
        let size: Int
    }

    private struct Document: Encodable {
        let title: String
        var rows: [Row]
        var others: [Int]
    }

    private func streamed(_ document: Document, parts: [[Row]]) throws -> [UInt8] {
        var skeleton = document
        skeleton.rows = []
        skeleton.others = []
        var bytes: [UInt8] = []
        try StreamedJSON.encode(skeleton, lists: [StreamedJSON.List("rows", parts: parts.count) { parts[$0] },
                                                  StreamedJSON.List("others", document.others)]) { bytes += $0 }
        return bytes
    }

    @Test("parts of any length, empty ones among them, or none made at all, give what one pass gives")
    func partsMatchOnePass() throws {
        let rows = (0..<700).map { Row(name: "asset-\($0)", size: $0 * 3) }
        let shapes: [[Int]] = [[700], [0, 256, 0, 0, 300, 144, 0], [1, 0, 699], [0, 0, 0], [], [0, 700, 0]]
        for shape in shapes {
            var parts: [[Row]] = [], start = 0
            for length in shape {
                parts.append(Array(rows[start..<(start + length)]))
                start += length
            }
            let made = Array(rows[0..<start])
            let document = Document(title: "t", rows: made, others: [1, 2, 3])
            #expect(try streamed(document, parts: parts) == StableJSON.encode(document), "parts \(shape)")
        }
        // A document whose only list made nothing.
        let empty = Document(title: "e", rows: [], others: [])
        #expect(try streamed(empty, parts: [[], []]) == StableJSON.encode(empty))
    }
}
