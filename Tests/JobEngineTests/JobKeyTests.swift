@testable import JobEngine
import Testing
import TesseraCore

@Suite("Job keys")
struct JobKeyTests {
    @Test("keys ignore option order and depend on stage, version, options and inputs")
    func keyDerivation() {
        let input = ContentHash.of(Array("pixels".utf8))
        let base = JobKey(kind: .downscale, version: 1, options: ["filter": "box", "width": "64"], inputs: [input])
        #expect(base == JobKey(kind: .downscale, version: 1, options: ["width": "64", "filter": "box"], inputs: [input]))
        #expect(base != JobKey(kind: .downscale, version: 2, options: ["filter": "box", "width": "64"], inputs: [input]))
        #expect(base != JobKey(kind: .encode, version: 1, options: ["filter": "box", "width": "64"], inputs: [input]))
        #expect(base != JobKey(kind: .downscale, version: 1, options: ["filter": "box", "width": "65"], inputs: [input]))
        #expect(base != JobKey(kind: .downscale, version: 1, options: ["filter": "box", "width": "64"],
                               inputs: [ContentHash.of(Array("other".utf8))]))
        // Length prefixes keep field boundaries: "ab"+"c" is not "a"+"bc".
        #expect(JobKey(kind: .decode, version: 1, options: ["ab": "c"]) != JobKey(kind: .decode, version: 1, options: ["a": "bc"]))
    }

    @Test("a key is SHA-256 and stable across processes (pinned value)")
    func keyIsStable() {
        let key = JobKey(kind: .decode, version: 1, options: ["max-pixels": "268435456"],
                         inputs: [ContentHash.of([UInt8]())])
        #expect(key.hash.hex.count == 64)
        #expect(key.hash.hex == JobKey(kind: .decode, version: 1, options: ["max-pixels": "268435456"],
                                       inputs: [ContentHash.of([UInt8]())]).hash.hex)
        #expect(ContentHash.of([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // SHA-256 of the fields, each as a little-endian 64-bit length and its bytes (computed
        // apart, in Python): a change in how fields reach the digest would move every cache key.
        #expect(key.hash.hex == "be272247a1855ae3713540342c703314d23abdd9762554341efca0c1d8091087")
    }
}
