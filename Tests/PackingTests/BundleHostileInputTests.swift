import Delivery
import Foundation
@testable import Packing
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Lays out bundles byte by byte, so a test can write what no honest writer would: any index
/// entry, any footer, numbers past `Int.max`. Records and index use the real encoders.
private struct HostileBundle {
    /// One index entry as raw on-disk numbers (u64s may exceed `Int.max`).
    struct RawEntry {
        var name: String
        var kind: BundleRecord.Kind = .data
        var compression: BundleRecord.Compression = .stored
        var recordOffset: UInt64
        var payloadOffset: UInt64
        var payloadLength: UInt64
        var uncompressedSize: UInt64
        var sha256: ContentHash
    }

    var bytes: [UInt8] = []
    var entries: [RawEntry] = []

    /// Appends a well-formed record and its matching index entry; returns the entry's position.
    @discardableResult
    mutating func add(_ name: String, _ contents: [UInt8], xz: Bool = false, declaredSize: Int? = nil) throws -> Int {
        let payload = xz ? try XZ.compress(contents) : contents
        let record = BundleRecord(name: name, kind: .data, compression: xz ? .xz : .stored,
                                  uncompressedSize: declaredSize ?? contents.count, traits: "", payload: payload)
        let recordOffset = bytes.count
        bytes += record.encoded()
        entries.append(RawEntry(name: name, compression: record.compression, recordOffset: UInt64(recordOffset),
                                payloadOffset: UInt64(recordOffset + record.prefix().count), payloadLength: UInt64(payload.count),
                                uncompressedSize: UInt64(declaredSize ?? contents.count), sha256: ContentHash.of(contents)))
        return entries.count - 1
    }

    func indexPayload() -> [UInt8] {
        var payload: [UInt8] = []
        payload.appendLittleEndian(UInt32(entries.count))
        for entry in entries {
            let name = Array(entry.name.utf8)
            payload.appendLittleEndian(UInt16(name.count))
            payload += name
            payload += [entry.kind.rawValue, entry.compression.rawValue]
            for value in [entry.recordOffset, entry.payloadOffset, entry.payloadLength, entry.uncompressedSize] {
                payload.appendLittleEndian(value)
            }
            payload += entry.sha256.bytes
        }
        return payload
    }

    static func footer(indexOffset: UInt64, indexLength: UInt64) -> [UInt8] {
        var footer = BundleFooter.magic
        footer.appendLittleEndian(indexOffset)
        footer.appendLittleEndian(indexLength)
        footer.appendLittleEndian(CRC32.checksum(footer))
        footer.appendLittleEndian(UInt32(0))
        return footer
    }

    /// The whole file: records, index record, footer (pointing at the index unless told otherwise).
    func file(footerOffset: UInt64? = nil, footerLength: UInt64? = nil) -> [UInt8] {
        let payload = indexPayload()
        let index = BundleRecord(name: "__index__", kind: .index, compression: .stored, uncompressedSize: payload.count,
                                 traits: "", payload: payload).encoded()
        return bytes + index + Self.footer(indexOffset: footerOffset ?? UInt64(bytes.count),
                                           indexLength: footerLength ?? UInt64(index.count))
    }

    func write(in workspace: Workspace, as name: String = "hostile.tsb", footerOffset: UInt64? = nil,
               footerLength: UInt64? = nil) throws -> String {
        let path = "\(workspace.root)/\(name)"
        try Data(file(footerOffset: footerOffset, footerLength: footerLength)).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// The reason `BundleFile` refuses a file, or nil when it opens.
private func refusal(_ path: String) -> String? {
    do { _ = try BundleFile(path: path); return nil } catch { return error.reason }
}

/// Peak resident memory of this process so far, in bytes.
private func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

@Suite("Bundle hostile input")
struct BundleHostileInputTests {
    private let text = Array(String(repeating: "hostile ", count: 64).utf8)

    @Test("footer offsets or lengths over Int.max, or summing past it, are refused, not a trap")
    func footerPastIntMax() throws {
        let workspace = try Workspace()
        var bundle = HostileBundle()
        try bundle.add("a.txt", text)
        for (offset, length) in [(UInt64(1) << 63, UInt64(10)), (UInt64.max, UInt64.max), (UInt64(10), UInt64(1) << 63)] {
            let path = try bundle.write(in: workspace, footerOffset: offset, footerLength: length)
            #expect(refusal(path)?.hasPrefix("no valid footer") == true)
        }
        // Each fits in an Int, but the sum overflows.
        let path = try bundle.write(in: workspace, footerOffset: UInt64(Int.max - 5), footerLength: 10)
        #expect(refusal(path) == "the footer points past the end")
        let sum = try bundle.write(in: workspace, footerOffset: 10, footerLength: UInt64(Int.max - 5))
        #expect(refusal(sum) == "the footer points past the end")
    }

    @Test("index numbers over Int.max or summing past it, and out-of-range offsets, are refused")
    func indexPastIntMax() throws {
        let workspace = try Workspace()
        var honest = HostileBundle()
        try honest.add("a.txt", text)
        try honest.add("b.txt", text)
        func refused(_ change: (inout HostileBundle.RawEntry) -> Void) throws -> String? {
            var bundle = honest
            change(&bundle.entries[1])
            return refusal(try bundle.write(in: workspace))
        }
        #expect(try refused { $0.payloadLength = UInt64(1) << 63 } == "the index record is damaged")
        #expect(try refused { $0.uncompressedSize = UInt64.max } == "the index record is damaged")
        #expect(try refused { $0.recordOffset = UInt64.max } == "the index record is damaged")
        #expect(try refused { $0.payloadLength = UInt64(Int.max) }?
            .hasPrefix("bad index: entry 'b.txt' has a \(Int.max)-byte payload at offset") == true)
        #expect(try refused { $0.payloadOffset = UInt64(Int.max - 2) }?
            .hasPrefix("bad index: entry 'b.txt' has record offset") == true)
        #expect(try refused { $0.payloadOffset = $0.recordOffset } != nil)
        // Pointing into the first record: two entries overlap.
        #expect(try refused { $0.recordOffset = 0; $0.payloadOffset = honest.entries[0].payloadOffset }?
            .hasPrefix("bad index: entries 'a.txt' and 'b.txt' overlap") == true)
        // A stored entry whose declared size is not its payload's.
        #expect(try refused { $0.uncompressedSize += 1 } == "bad index: stored entry 'b.txt' declares 513 bytes but stores 512")
    }

    @Test("a declared uncompressed size of 2^63 or 1 TiB is refused before any allocation")
    func hugeDeclaredSizes() throws {
        let workspace = try Workspace()
        let tebibyte = 1 << 40
        var bundle = HostileBundle()
        try bundle.add("bomb.txt", text, xz: true, declaredSize: tebibyte)
        #expect(refusal(try bundle.write(in: workspace))
                == "bad index: entry 'bomb.txt' declares \(tebibyte) bytes, over the \(8 << 30)-byte limit")
        bundle.entries[0].uncompressedSize = UInt64(1) << 63
        #expect(refusal(try bundle.write(in: workspace)) == "the index record is damaged")

        // The stream reader and a record's own contents() refuse them too.
        let reader = BundleStreamReader()
        let events = reader.feed(bundle.bytes) + reader.finish()
        #expect(events == [.damaged(offset: 0, name: "bomb.txt",
                                    reason: "it declares \(tebibyte) uncompressed bytes, over the \(8 << 30)-byte limit")])
        let record = BundleRecord(name: "bomb.txt", kind: .data, compression: .xz, uncompressedSize: tebibyte, traits: "",
                                  payload: try XZ.compress(text))
        #expect(throws: TesseraError.self) { try record.contents() }
        do { _ = try record.contents() } catch { #expect(error.kind == .limitExceeded) }
        var header = BundleRecord(name: "x", kind: .data, compression: .xz, uncompressedSize: 0, traits: "", payload: []).encodedHeader()
        header.replaceSubrange(5..<13, with: [0, 0, 0, 0, 0, 0, 0, 0x80])  // uncompressedSize = 2^63
        #expect(BundleRecord.decodeHeader(header[...]) == nil)
    }

    @Test("a declared 6 GB entry costs no memory: extract and verify stream it and report the real size")
    func sixGigabytesDeclared() throws {
        let workspace = try Workspace()
        let declared = 6_000_000_000
        var bundle = HostileBundle()
        try bundle.add("big.bin", text, xz: true, declaredSize: declared)
        let path = try bundle.write(in: workspace)
        let before = peakResidentBytes()
        let file = try BundleFile(path: path)
        #expect(throws: TesseraError.self) { try BundleExtractor.extract(file, into: "\(workspace.root)/out") }
        let verification = BundleVerifier.verify(path: path)
        #expect(peakResidentBytes() - before < 256 << 20)
        #expect(verification.problems == ["'big.bin' at offset 0: xz payload decompresses to 512 bytes, not its declared \(declared)"])
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out"))
    }

    @Test("an entry larger than every buffer streams through xz and extracts byte for byte")
    func streamingExtraction() throws {
        let workspace = try Workspace()
        // 3 MiB: several 1 MiB reads and many 64 KiB output pieces.
        let contents = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 / 7 ^ $0 / 1000) }
        var bundle = HostileBundle()
        try bundle.add("deep/big.bin", contents, xz: true)
        try bundle.add("small.txt", text)
        let path = try bundle.write(in: workspace)
        try BundleExtractor.extract(try BundleFile(path: path), into: "\(workspace.root)/out")
        #expect(workspace.files(under: "\(workspace.root)/out")
                == ["deep/big.bin": Data(contents), "small.txt": Data(text)])
        #expect(BundleVerifier.verify(path: path) == BundleVerification(records: 3, problems: []))
    }

    @Test("entry names are checked on their UTF-8 bytes: '../' + U+0301, NUL, absolute, empty components")
    func entryNameRule() {
        #expect(BundleEntryName.problem(with: "../\u{301}x") == "the name has a '..' path component")
        #expect(BundleEntryName.problem(with: "a/..\u{301}/b") == nil)  // "..́" is an ordinary name
        #expect(BundleEntryName.problem(with: "a\0b") == "the name contains a NUL byte")
        #expect(BundleEntryName.problem(with: "/etc/passwd") == "the name is an absolute path")
        #expect(BundleEntryName.problem(with: "a//b") == "the name has an empty path component")
        #expect(BundleEntryName.problem(with: "a/") == "the name has an empty path component")
        #expect(BundleEntryName.problem(with: "./a") == "the name has a '.' path component")
        #expect(BundleEntryName.problem(with: "") == "the name is empty")
        #expect(BundleEntryName.problem(with: String(repeating: "x", count: 256)) == "a path component is over 255 bytes")
        #expect(BundleEntryName.problem(with: "icons/Clipboard@3x~dark.png") == nil)
    }

    @Test("an entry named '../' + U+0301 + 'x' cannot escape the destination")
    func combiningMarkEscape() async throws {
        let workspace = try Workspace()
        var bundle = HostileBundle()
        try bundle.add("../\u{301}x", text)
        let path = try bundle.write(in: workspace)
        let result = try await TesseraProcess.run(["bundle", "extract", path, "\(workspace.root)/box/out"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unsafe entry name '../\u{301}x': the name has a '..' path component"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/box/\u{301}x"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(workspace.root)/box")) ?? [] == [])
        let verify = try await TesseraProcess.run(["bundle", "verify", path])
        #expect(verify.status == 1 && verify.stderr.contains("unsafe entry name"))
    }

    @Test("a NUL in a name is refused, not cut short")
    func nulInName() throws {
        let workspace = try Workspace()
        var bundle = HostileBundle()
        try bundle.add("a\0b", text)
        let path = try bundle.write(in: workspace)
        #expect(refusal(path) == "bad index: unsafe entry name 'a\0b': the name contains a NUL byte")
        #expect(throws: TesseraError.self) { try BundleExtractor.extract(try BundleFile(path: path), into: "\(workspace.root)/out") }
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out"))
    }

    @Test("duplicate names, names equal but for case or normalisation, and a file where a folder goes are refused")
    func duplicateNames() throws {
        let workspace = try Workspace()
        for (first, second) in [("a.txt", "a.txt"), ("A.txt", "a.txt"), ("caf\u{E9}.txt", "cafe\u{301}.txt"),
                                ("icons", "icons/a.png"), ("icons/a.png", "icons")] {
            var bundle = HostileBundle()
            try bundle.add(first, text)
            try bundle.add(second, Array("other".utf8))
            let path = try bundle.write(in: workspace)
            let reason = try #require(refusal(path))
            #expect(reason.hasPrefix("bad index: ") && reason.contains("'\(first)'"), "\(first) / \(second): \(reason)")
            #expect(!BundleVerifier.verify(path: path).isIntact)
        }
        #expect(BundleEntryName.conflict(in: ["a/b", "a/c", "ab", "a.b"]) == nil)
    }

    @Test("verify fails every hostile bundle extract fails, and also one whose index names the wrong record")
    func verifyMatchesExtract() throws {
        let workspace = try Workspace()
        var honest = HostileBundle()
        try honest.add("a.txt", text)
        try honest.add("b.txt", text, xz: true)
        var cases: [String: HostileBundle] = ["honest": honest]
        var bundle = honest
        bundle.entries[1].recordOffset = 0  // b points at a's record: overlap
        bundle.entries[1].payloadOffset = honest.entries[0].payloadOffset
        bundle.entries[1].compression = .stored
        bundle.entries[1].payloadLength = honest.entries[0].payloadLength
        bundle.entries[1].uncompressedSize = honest.entries[0].payloadLength
        cases["overlap"] = bundle
        bundle = honest
        bundle.entries[1].payloadOffset += 1_000_000  // out of range
        cases["out of range"] = bundle
        bundle = honest
        bundle.entries[0].sha256 = ContentHash.of([1, 2, 3])  // intact record, wrong hash in the index
        cases["sha"] = bundle
        bundle = honest
        bundle.entries[1].uncompressedSize -= 1  // xz output longer than declared
        cases["xz size"] = bundle
        bundle = honest
        bundle.entries[1].name = "c.txt"  // points at a record of another name
        cases["name"] = bundle

        for (label, bundle) in cases.sorted(by: { $0.key < $1.key }) {
            let path = try bundle.write(in: workspace, as: "\(label).tsb")
            let out = "\(workspace.root)/out-\(label)"
            let extracted = (try? BundleExtractor.extract(try BundleFile(path: path), into: out)) != nil
            let verification = BundleVerifier.verify(path: path)
            #expect(extracted == (label == "honest" || label == "name"), "\(label)")
            #expect(verification.isIntact == (label == "honest"), "\(label): \(verification.problems)")
        }
    }

    @Test("a name with a 255-byte component verifies and extracts (no temporary name pushes it past NAME_MAX)")
    func longestComponent() throws {
        let workspace = try Workspace()
        let name = "deep/" + String(repeating: "n", count: BundleEntryName.maxComponentLength)
        var bundle = HostileBundle()
        try bundle.add(name, text)
        let path = try bundle.write(in: workspace)
        #expect(BundleVerifier.verify(path: path).isIntact)
        try BundleExtractor.extract(try BundleFile(path: path), into: "\(workspace.root)/out")
        #expect(workspace.files(under: "\(workspace.root)/out") == [name: Data(text)])
    }

    @Test("an empty bundle extracts to an empty folder and verifies")
    func emptyBundle() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: "\(workspace.root)/nothing", withIntermediateDirectories: true)
        let path = "\(workspace.root)/empty.tsb"
        #expect(try await TesseraProcess.run(["bundle", "create", path, "\(workspace.root)/nothing"]).status == 0)
        let extract = try await TesseraProcess.run(["bundle", "extract", path, "\(workspace.root)/out"])
        #expect(extract.status == 0 && extract.stdout == "0 entries into \(workspace.root)/out\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(workspace.root)/out") == [])
        #expect(try await TesseraProcess.run(["bundle", "verify", path]).stdout == "1 records, 0 problems\n")
    }
}
