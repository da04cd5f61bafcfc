import Delivery
import Foundation
import Packing
import TestSupport
import Testing
import TesseraCore

@Suite("Bundle format")
struct BundleFormatTests {
    /// A bundle of mixed records: compressible data, incompressible noise, a ready bitmap.
    private func makeBundle(in workspace: Workspace) throws -> (path: String, bytes: [UInt8]) {
        let path = "\(workspace.root)/test.tsb"
        let writer = try BundleWriter(path: path)
        var noise = [UInt8](repeating: 0, count: 5000)
        var state: UInt64 = 42
        for index in noise.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            noise[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        try writer.add(name: "assets/text.json", kind: .data, traits: "kind=data",
                       contents: Array(String(repeating: "tessera ", count: 400).utf8))
        try writer.add(name: "assets/noise.png", kind: .image, traits: "scale=2x", contents: noise)
        try writer.add(name: "bitmaps/noise.bitmap", kind: .readyBitmap, traits: "scale=2x", contents: noise)
        try writer.add(name: "assets/empty", kind: .data, traits: "", contents: [])
        _ = try writer.finish()
        return (path, try Array(Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private func events(_ bytes: [UInt8], chunks: [Int]) -> [BundleStreamReader.Event] {
        let reader = BundleStreamReader()
        var events: [BundleStreamReader.Event] = []
        var position = 0
        for size in chunks where position < bytes.count {
            events += reader.feed(bytes[position..<min(bytes.count, position + size)])
            position += size
        }
        if position < bytes.count { events += reader.feed(bytes[position...]) }
        return events + reader.finish()
    }

    private func names(_ events: [BundleStreamReader.Event]) -> [String] {
        events.map {
            switch $0 {
            case .record(let record, let offset): "\(record.name)@\(offset)"
            case .damaged(let offset, let name, let reason): "damaged \(name ?? "-")@\(offset): \(reason)"
            }
        }
    }

    @Test("any chunking — one byte at a time, whole, random splits — yields exactly the same records")
    func chunkingProperty() throws {
        let workspace = try Workspace()
        let (_, bytes) = try makeBundle(in: workspace)
        let whole = events(bytes, chunks: [bytes.count])
        #expect(names(whole) .count == 5)  // four entries and the index
        #expect(!names(whole).contains { $0.hasPrefix("damaged") })
        #expect(events(bytes, chunks: Array(repeating: 1, count: bytes.count)) == whole)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            var chunks: [Int] = []
            var total = 0
            while total < bytes.count {
                let size = Int.random(in: 1...max(1, Int.random(in: 1...9000, using: &generator)), using: &generator)
                chunks.append(size)
                total += size
            }
            #expect(events(bytes, chunks: chunks) == whole)
        }
    }

    @Test("a file packed in several 1 MiB chunks carries the CRC readers check, and reads back byte for byte")
    func chunkedFileCRC() throws {
        let workspace = try Workspace()
        var contents = [UInt8](repeating: 0, count: 3 * 1_048_576 + 12_345)
        var state: UInt64 = 7
        for index in contents.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            contents[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let source = "\(workspace.root)/master@3x.png"
        try Data(contents).write(to: URL(fileURLWithPath: source))
        let path = "\(workspace.root)/chunked.tsb"
        let writer = try BundleWriter(path: path)
        try writer.addFile(name: "assets/master@3x.png", kind: .image, traits: "scale=3x", path: source)
        _ = try writer.finish()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let read = events(bytes, chunks: [65_536])
        #expect(names(read).filter { $0.hasPrefix("damaged") }.isEmpty)
        #expect(names(read).count == 2)  // the entry and the index
        let entry = try #require(try BundleFile(path: path).index.entries.first)
        #expect(entry.sha256 == ContentHash.of(contents))
        let crc = bytes.readLittleEndian(UInt32.self, at: entry.payloadOffset + entry.payloadLength)
        #expect(crc == CRC32.checksum(contents))
    }

    @Test("random access: the footer finds the index, each entry is one read, bitmaps are 4096-aligned and stored")
    func randomAccess() throws {
        let workspace = try Workspace()
        let (path, _) = try makeBundle(in: workspace)
        let bundle = try BundleFile(path: path)
        #expect(bundle.index.entries.map(\.name) == ["assets/text.json", "assets/noise.png", "bitmaps/noise.bitmap", "assets/empty"])
        let text = try #require(bundle.index.entries.first)
        #expect(text.compression == .xz && text.payloadLength < text.uncompressedSize / 10)
        #expect(bundle.index.entries[1].compression == .stored)  // noise does not compress by 5%
        let bitmap = bundle.index.entries[2]
        #expect(bitmap.payloadOffset % 4096 == 0 && bitmap.compression == .stored)
        for entry in bundle.index.entries {
            #expect(ContentHash.of(try bundle.contents(of: entry)) == entry.sha256)
        }
    }

    @Test("a flipped payload byte is reported by name and offset; the other records still read")
    func payloadDamage() throws {
        let workspace = try Workspace()
        let (path, original) = try makeBundle(in: workspace)
        let entry = try BundleFile(path: path).index.entries[1]
        var bytes = original
        bytes[entry.payloadOffset + 10] ^= 0xFF
        let result = names(events(bytes, chunks: [777]))
        #expect(result.contains("damaged assets/noise.png@\(entry.recordOffset): payload CRC mismatch"))
        #expect(result.filter { !$0.hasPrefix("damaged") }.count == 4)
    }

    @Test("a damaged header is skipped: the reader resynchronises at the next valid record")
    func headerDamage() throws {
        let workspace = try Workspace()
        let (path, original) = try makeBundle(in: workspace)
        let entries = try BundleFile(path: path).index.entries
        var bytes = original
        bytes[entries[0].recordOffset + 9] ^= 0x55  // inside the first header: its CRC fails
        let result = names(events(bytes, chunks: [1]))
        #expect(result.first == "damaged -@0: \(entries[1].recordOffset) bytes that are not a record were skipped")
        #expect(result.dropFirst().filter { !$0.hasPrefix("damaged") }.map { $0.split(separator: "@")[0] }
                == ["assets/noise.png", "bitmaps/noise.bitmap", "assets/empty", "__index__"])
    }

    @Test("truncation, duplication, garbage and absurd lengths: reported, never a stall or a crash")
    func otherDamage() throws {
        let workspace = try Workspace()
        let (path, original) = try makeBundle(in: workspace)
        let entries = try BundleFile(path: path).index.entries
        // Truncated in the middle of the second record.
        let truncated = Array(original.prefix(entries[1].payloadOffset + 100))
        let cut = names(events(truncated, chunks: [64]))
        #expect(cut.first == "assets/text.json@0")
        #expect(cut.last?.hasPrefix("damaged -@\(entries[1].recordOffset): the stream ends inside a record") == true)
        // A record duplicated: both copies are read.
        let first = Array(original[entries[0].recordOffset..<entries[1].recordOffset])
        let duplicated = first + original
        #expect(names(events(duplicated, chunks: [333])).filter { $0.hasPrefix("assets/text.json") }.count == 2)
        // Garbage between records, including a fake magic with an absurd header length.
        let garbage: [UInt8] = [1, 2, 3] + Array("TSRC".utf8) + [0xFF, 0xFF, 0xFF, 0x7F] + [9, 9]
        let dirty = Array(original[..<entries[1].recordOffset]) + garbage + Array(original[entries[1].recordOffset...])
        let read = names(events(dirty, chunks: [5]))
        #expect(read.contains("damaged -@\(entries[1].recordOffset): \(garbage.count) bytes that are not a record were skipped"))
        #expect(read.filter { !$0.hasPrefix("damaged") }.count == 5)
        // An absurd payload length is refused before buffering it.
        let small = BundleStreamReader(maxPayloadLength: 100)
        let refused = small.feed(original) + small.finish()
        #expect(refused.contains { if case .damaged(_, "assets/noise.png", let reason) = $0 { reason.contains("over the 100-byte limit") } else { false } })
    }

    @Test("a file that is not a bundle, or has a damaged footer, is refused with the reason")
    func notABundle() throws {
        let workspace = try Workspace()
        try workspace.write(Array("hello".utf8), as: "x.tsb")
        do {
            _ = try BundleFile(path: "\(workspace.input)/x.tsb")
            Issue.record("opened a non-bundle")
        } catch {
            #expect(error.reason.hasPrefix("no valid footer"))
        }
    }
}
