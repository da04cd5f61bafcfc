import Testing
@testable import TesseraCore

/// The ledger's record of a build's files, packed rather than a string each (issue 54, item 14):
/// what it hands back is what a set of the paths held.
@Suite("Output ledger packing")
struct OutputLedgerPackingTests {
    @Test("packed paths come back each once, across buffers, a path longer than a buffer too")
    func packedPathsRoundTrip() {
        var packed = OutputLedger.PackedPaths()
        var expected: Set<String> = []
        // About 3 MB of names: several buffers, each path whole in one of them.
        for index in 0..<60_000 {
            let path = "app/Many.xcassets/tiny-\(index).imageset/tiny-\(index)@2x.png"
            packed.append(Substring(path))
            expected.insert(path)
        }
        let long = String(repeating: "x/", count: OutputLedger.PackedPaths.chunk) + "end.png"
        packed.append(Substring(long))
        expected.insert(long)
        // Recorded again (a file written twice, restored then found right): listed once.
        packed.append("app/Many.xcassets/tiny-7.imageset/tiny-7@2x.png")
        packed.append("variants/é ü.png")
        expected.insert("variants/é ü.png")
        #expect(packed.paths == expected)
        #expect(OutputLedger.PackedPaths().paths.isEmpty)
    }
}
