import Delivery
import Foundation
import TesseraCore

/// What `BundleVerifier` found: how many records the stream scan read intact, and every problem.
public struct BundleVerification: Sendable, Equatable {
    public var records: Int
    /// One line per problem, naming the entry and offset where known.
    public var problems: [String]

    public var isIntact: Bool { problems.isEmpty }
}

/// Checks a bundle without extracting it: everything `BundleExtractor` checks, and more.
///
/// 1. The stream scan: every record's header and payload CRCs, read front to back with
///    `BundleStreamReader` (which finds damage the index cannot see, such as a bad CRC in a record
///    no entry points at).
/// 2. What extraction checks, with the same code: the footer and index (`BundleFile`'s opening
///    checks: names, duplicates, ranges, overlaps, sizes), then every entry streamed through
///    `BundleFile.read(_:into:)` (decompression, size, SHA-256), just without a file to write.
/// 3. That every index entry points at an intact record of that name.
/// So a bundle that verifies always extracts (file system errors aside).
public enum BundleVerifier {
    public static func verify(path: String, limits: BundleLimits = .standard) -> BundleVerification {
        var result = BundleVerification(records: 0, problems: [])
        var recordNames: [Int: String] = [:]
        guard let input = FileHandle(forReadingAtPath: path) else {
            result.problems.append("cannot open the file")
            return result
        }
        defer { try? input.close() }
        let reader = BundleStreamReader(limits: limits)
        func take(_ events: [BundleStreamReader.Event]) {
            for event in events {
                switch event {
                case .record(let record, let offset):
                    result.records += 1
                    recordNames[offset] = record.name
                case .damaged(let offset, let name, let reason):
                    result.problems.append("\(name.map { "'\($0)' " } ?? "")at offset \(offset): \(reason)")
                }
            }
        }
        do {
            while let chunk = try input.read(upToCount: BundleFile.readChunk), !chunk.isEmpty { take(reader.feed(chunk)) }
        } catch {
            result.problems.append("read failed: \(error.localizedDescription)")
        }
        take(reader.finish())

        let bundle: BundleFile
        do { bundle = try BundleFile(path: path, limits: limits) } catch {
            result.problems.append("the footer or index: \(error.reason)")
            return result
        }
        for entry in bundle.index.entries {
            if recordNames[entry.recordOffset] != entry.name {
                result.problems.append("'\(entry.name)' at offset \(entry.recordOffset): the index points at no intact record of that name")
            }
            do {
                try bundle.read(entry) { (_: UnsafeRawBufferPointer) throws(TesseraError) in }
            } catch {
                result.problems.append(error.reason)
            }
        }
        return result
    }
}
