import Foundation
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Files already hashed, by absolute path: size, modification and change times and inode →
/// SHA-256, as git's index and ninja's log keep them. A file whose `stat` still matches is not
/// read again, which is what keeps a no-op run from re-hashing every source and output.
///
/// Racy entries are not trusted: a file hashed in the same instant it was last modified may be
/// modified again without its times changing, so an entry counts only when the file was at least
/// `racyWindow` older than the moment it was hashed, or when Tessera wrote the file itself.
public final class FingerprintIndex: FileHashing, Sendable {
    struct Entry: Sendable, Equatable {
        var stat: FileStat
        var hash: ContentHash
        var recordedNanoseconds: Int64
        var writtenHere: Bool
    }

    static let racyWindow: Int64 = 100_000_000

    private let file: String?
    private let state = Mutex<State>(State())

    private struct State {
        var entries: [String: Entry] = [:]
        var changed: Set<String> = []
        var filesRead = 0
    }

    /// How many files this index had to read and hash (the rest it answered from its entries).
    public var filesRead: Int { state.withLock { $0.filesRead } }

    /// Loads the index at `file` (a missing or damaged file is an empty index); nil keeps it in memory only.
    public init(file: String?) {
        self.file = file
        if let file, let bytes = BlobCopy.read(file) {
            state.withLock { $0.entries = Self.parse(bytes) }
        }
    }

    /// The file's SHA-256, from the index when its `stat` is unchanged, else by reading it.
    public func contentHash(ofFileAt path: String) throws(TesseraError) -> ContentHash {
        let absolute = Self.absolute(path)
        if let known = knownHash(ofFileAt: absolute) { return known }
        let before = FileStat(path: absolute)
        state.withLock { $0.filesRead += 1 }
        let hash = try ContentHash.ofFile(at: absolute)
        if let before, FileStat(path: absolute) == before { remember(absolute, before, hash, writtenHere: false) }
        return hash
    }

    /// The recorded hash when the file is unchanged since it was recorded; nil otherwise.
    func knownHash(ofFileAt path: String) -> ContentHash? {
        let absolute = Self.absolute(path)
        guard let entry = state.withLock({ $0.entries[absolute] }), let now = FileStat(path: absolute),
              now == entry.stat else { return nil }
        guard entry.writtenHere || entry.stat.modifiedNanoseconds + Self.racyWindow < entry.recordedNanoseconds else {
            return nil
        }
        return entry.hash
    }

    /// Records a file Tessera has just written with bytes whose hash it knows.
    func recordWritten(_ path: String, hash: ContentHash) {
        let absolute = Self.absolute(path)
        guard let stat = FileStat(path: absolute) else { return }
        remember(absolute, stat, hash, writtenHere: true)
    }

    private func remember(_ path: String, _ stat: FileStat, _ hash: ContentHash, writtenHere: Bool) {
        let entry = Entry(stat: stat, hash: hash, recordedNanoseconds: FileStat.now(), writtenHere: writtenHere)
        state.withLock {
            $0.entries[path] = entry
            $0.changed.insert(path)
        }
    }

    /// Writes the entries this run changed into the index file, merged with what other runs
    /// wrote meanwhile (under the cache's lock; temporary file and rename).
    public func save(temporaryFolder: String, lock: String) {
        guard let file else { return }
        let changed = state.withLock { state in state.changed.map { ($0, state.entries[$0]!) } }
        guard !changed.isEmpty else { return }
        FileLock.withExclusive(lock) {
            var merged = BlobCopy.read(file).map(Self.parse) ?? [:]
            for (path, entry) in changed { merged[path] = entry }
            // Entries of files that are gone are dropped once the index grows large.
            if merged.count > 200_000 { merged = merged.filter { FileStat(path: $0.key) != nil } }
            _ = BlobCopy.place(Array(Self.format(merged).utf8), at: file, temporaryFolder: temporaryFolder)
        }
        state.withLock { $0.changed.removeAll() }
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// One line per file: `sha256 size mtime ctime inode recorded written path`.
    private static func format(_ entries: [String: Entry]) -> String {
        var text = "tessera-fingerprints 1\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where !path.contains("\n") {
            text += "\(entry.hash.hex) \(entry.stat.size) \(entry.stat.modifiedNanoseconds) \(entry.stat.changedNanoseconds) "
                + "\(entry.stat.inode) \(entry.recordedNanoseconds) \(entry.writtenHere ? 1 : 0) \(path)\n"
        }
        return text
    }

    /// Parsed from the bytes, field by field: a no-op run reads an index of every source and
    /// output (thousands of lines), and splitting it into `String`s was a tenth of the run.
    private static func parse(_ bytes: [UInt8]) -> [String: Entry] {
        let header = Array("tessera-fingerprints 1\n".utf8)
        guard bytes.starts(with: header) else { return [:] }
        var entries: [String: Entry] = [:]
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var start = header.count
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
            defer { start = end + 1 }
            var fields: [ArraySlice<UInt8>] = []
            var fieldStart = start
            // Seven space-separated fields, then the path (which may hold spaces).
            while fields.count < 7, let space = bytes[fieldStart..<end].firstIndex(of: space) {
                fields.append(bytes[fieldStart..<space])
                fieldStart = space + 1
            }
            guard fields.count == 7, fieldStart < end, let hash = ContentHash(hexUTF8: fields[0]),
                  let size = integer(fields[1]), let modified = integer(fields[2]), let changed = integer(fields[3]),
                  let inode = unsigned(fields[4]), let recorded = integer(fields[5]) else { continue }
            entries[String(decoding: bytes[fieldStart..<end], as: UTF8.self)] = Entry(
                stat: FileStat(size: size, modifiedNanoseconds: modified, changedNanoseconds: changed, inode: inode),
                hash: hash, recordedNanoseconds: recorded, writtenHere: fields[6].elementsEqual([UInt8(ascii: "1")]))
        }
        return entries
    }

    /// A decimal integer (optionally negative) that fits an `Int64`; nil otherwise.
    private static func integer(_ digits: ArraySlice<UInt8>) -> Int64? {
        if digits.first == UInt8(ascii: "-") {
            return unsigned(digits.dropFirst()).flatMap { $0 <= UInt64(Int64.max) ? -Int64($0) : nil }
        }
        return unsigned(digits).flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil }
    }

    /// Decimal digits that fit a `UInt64`; nil otherwise.
    private static func unsigned(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            value = sum
        }
        return value
    }
}
