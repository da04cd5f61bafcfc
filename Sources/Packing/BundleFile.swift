import Foundation
import TesseraCore

/// Random access to a bundle on disk: the footer locates the index, the index locates any entry,
/// so reading one entry takes one ranged read after the index (as an HTTP Range request would).
public final class BundleFile {
    public let path: String
    public let index: BundleIndex
    private let handle: FileHandle
    public let size: Int

    public init(path: String) throws(TesseraError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TesseraError(.io, file: path, stage: "bundle", reason: "cannot open the bundle")
        }
        self.handle = handle
        let end: UInt64
        do { end = try handle.seekToEnd() } catch {
            throw TesseraError(.io, file: path, stage: "bundle", reason: "cannot read: \(error.localizedDescription)")
        }
        size = Int(end)
        guard size >= BundleFooter.size,
              let footer = BundleFooter.decode(try Self.read(handle, at: size - BundleFooter.size,
                                                              count: BundleFooter.size, path: path)) else {
            throw TesseraError(.invalidInput, file: path, stage: "bundle",
                               reason: "no valid footer: not a Tessera bundle, or truncated (use `bundle verify` to scan it)")
        }
        guard footer.indexOffset + footer.indexLength <= size - BundleFooter.size else {
            throw TesseraError(.invalidInput, file: path, stage: "bundle", reason: "the footer points past the end")
        }
        let bytes = try Self.read(handle, at: footer.indexOffset, count: footer.indexLength, path: path)
        let reader = BundleStreamReader()
        let events = reader.feed(bytes) + reader.finish()
        guard events.count == 1, case .record(let record, _) = events[0], record.kind == .index,
              let index = BundleIndex.decode(record.payload) else {
            throw TesseraError(.invalidInput, file: path, stage: "bundle", reason: "the index record is damaged")
        }
        self.index = index
    }

    deinit { try? handle.close() }

    /// One entry's contents, checked against the index's SHA-256.
    public func contents(of entry: BundleIndex.Entry) throws(TesseraError) -> [UInt8] {
        let payload = try Self.read(handle, at: entry.payloadOffset, count: entry.payloadLength, path: path)
        let contents = entry.compression == .xz ? try XZ.decompress(payload, expectedSize: entry.uncompressedSize) : payload
        guard ContentHash.of(contents) == entry.sha256 else {
            throw TesseraError(.invalidInput, file: path, stage: "bundle",
                               reason: "'\(entry.name)' at offset \(entry.recordOffset) does not match its SHA-256")
        }
        return contents
    }

    static func read(_ handle: FileHandle, at offset: Int, count: Int, path: String) throws(TesseraError) -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else {
                throw TesseraError(.invalidInput, file: path, stage: "bundle", reason: "truncated at offset \(offset)")
            }
            return Array(data)
        } catch let error as TesseraError {
            throw error
        } catch {
            throw TesseraError(.io, file: path, stage: "bundle", reason: "read failed: \(error.localizedDescription)")
        }
    }
}
