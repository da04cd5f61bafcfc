import Foundation
import Testing
import TesseraCore

/// The core types every stage leans on: sizes people type, globs over asset names, the one SHA-256
/// and CRC-32, atomic files and the one JSON style.
@Suite("Core values")
struct CoreValueTests {
    @Test("sizes: decimal suffixes are powers of 1000, binary and bare ones of 1024; anything else is not a size")
    func byteCounts() {
        let cases: [(String, Int?)] = [("1073741824", 1_073_741_824), ("512MB", 512_000_000), ("1GiB", 1 << 30),
                                        ("64k", 65_536), (" 2 KiB ", 2048), ("1.5MB", 1_500_000), ("0", 0),
                                        ("-1MB", nil), ("12 parsecs", nil), ("", nil), ("1e400", nil)]
        for (text, bytes) in cases {
            #expect(ByteCount(parsing: text)?.bytes == bytes, "\(text)")
        }
    }

    @Test("globs: * and ? stay within a segment, ** spans segments (and no segment), and a pathological pattern answers at once")
    func globs() {
        #expect(Glob("Icons/*").matches("Icons/star"))
        #expect(!Glob("Icons/*").matches("Icons/sub/star"))
        #expect(Glob("Icons/**").matches("Icons/sub/star"))
        #expect(Glob("**/star").matches("star") && Glob("**/star").matches("a/b/star"))
        #expect(Glob("st?r").matches("star") && !Glob("st?r").matches("st/r"))
        let started = Date()
        #expect(!Glob(String(repeating: "*a", count: 20) + "*b").matches(String(repeating: "a", count: 200)))
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test("SHA-256 and CRC-32 give the published check values")
    func checksums() {
        #expect(ContentHash.of(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(ContentHash(hex: ContentHash.of([1, 2, 3]).hex) == ContentHash.of([1, 2, 3]))
        #expect(ContentHash(hex: "not hex") == nil)
    }

    @Test("an atomic write leaves the old file or the new one, never a part, and no temporary file behind")
    func atomicWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/deep/file.bin"
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/deep") == ["file.bin"])
        // A folder in the file's place: the write fails, naming the path, and leaves nothing behind.
        try FileManager.default.createDirectory(atPath: "\(folder)/taken", withIntermediateDirectories: true)
        let error = #expect(throws: TesseraError.self) { try AtomicFile.write([1], to: "\(folder)/taken") }
        #expect(error?.description.contains("\(folder)/taken") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["deep", "taken"])
    }

    @Test("the one JSON style: sorted keys, unescaped slashes, a trailing newline; the same value, the same bytes")
    func stableJSON() throws {
        let value = ["b": "x/y", "a": "z"]
        let bytes = try StableJSON.encode(value)
        #expect(String(decoding: bytes, as: UTF8.self) == "{\n  \"a\" : \"z\",\n  \"b\" : \"x/y\"\n}\n")
        #expect(try StableJSON.compact(value) == Array(#"{"a":"z","b":"x/y"}"#.utf8))
        #expect(try StableJSON.decode([String: String].self, from: bytes, source: "t") == value)
        #expect(throws: TesseraError.self) { try StableJSON.decode([String: String].self, from: [0x7B], source: "t") }
    }
}

/// Job kinds and problem origins: two vocabularies, one spelling for what they share.
@Suite("Job kinds")
struct JobKindTests {
    @Test("every job kind is a problem origin of the same name, and the checks before any job runs are not job kinds")
    func kindsAreOrigins() {
        for kind in JobKind.allCases {
            #expect(ProblemOrigin(kind).rawValue == kind.rawValue)
        }
        for origin in [ProblemOrigin.catalog, .pipeline, .read, .serve, .store, .client, .publish, .query] {
            #expect(JobKind(rawValue: origin.rawValue) == nil, "\(origin) is not a kind of job")
        }
    }
}
