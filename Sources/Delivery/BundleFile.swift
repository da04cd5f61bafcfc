import Foundation
import TesseraCore

/// Random access to a bundle on disk: the footer locates the index, the index locates any entry,
/// so reading one entry takes one ranged read after the index (as an HTTP Range request would).
///
/// Opening checks the footer and the whole index against the file's size and `limits` (see
/// `BundleIndex.problem(recordsEnd:limits:)`), so every offset and length it hands out is safe to use.
public final class BundleFile {
    public let path: String
    public let index: BundleIndex
    public let limits: BundleLimits
    private let handle: FileHandle
    public let size: Int
    /// How much of a payload one read takes while streaming an entry.
    package static let readChunk = 1 << 20

    public init(path: String, limits: BundleLimits = .standard) throws(TesseraError) {
        self.path = path
        self.limits = limits
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TesseraError(.io, file: path, origin: .bundle, reason: "cannot open the bundle")
        }
        self.handle = handle
        let end: UInt64
        do { end = try handle.seekToEnd() } catch {
            throw TesseraError(.io, file: path, origin: .bundle, reason: "cannot read: \(error.localizedDescription)")
        }
        guard let size = Int(exactly: end) else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle, reason: "the file is too large to be a bundle")
        }
        self.size = size
        guard size >= BundleFooter.size else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle,
                               reason: "no valid footer: not a Tessera bundle, or truncated (use `bundle verify` to scan it)")
        }
        let index: BundleIndex
        do {
            let footer = try Self.read(handle, at: size - BundleFooter.size, count: BundleFooter.size, path: path)
            let range = try BundleRanges.indexRange(footer: footer, bundleSize: size, limits: limits)
            index = try BundleRanges.index(record: try Self.read(handle, at: range.lowerBound, count: range.count, path: path),
                                           at: range.lowerBound, limits: limits)
        } catch {
            var located = error.located(file: path, origin: .bundle)
            if located.reason.hasPrefix("no valid footer") { located.reason += " (use `bundle verify` to scan it)" }
            throw located
        }
        self.index = index
    }

    deinit { try? handle.close() }

    /// Streams one entry's contents to `sink` in pieces, decompressing as it goes, then checks the
    /// size and SHA-256 against the index; memory stays bounded whatever the entry's size.
    /// `sink` sees the bytes before the final check: whoever keeps them must wait for this to return.
    public func read(_ entry: BundleIndex.Entry,
                     into sink: (UnsafeRawBufferPointer) throws(TesseraError) -> Void) throws(TesseraError) {
        var hasher = ContentHasher()
        var produced = 0
        func take(_ piece: UnsafeRawBufferPointer) throws(TesseraError) {
            hasher.update(piece)
            produced += piece.count
            try sink(piece)
        }
        let decoder = entry.compression == .xz ? try XZStreamDecoder(expectedSize: entry.uncompressedSize) : nil
        var position = entry.payloadOffset
        let end = entry.payloadOffset + entry.payloadLength  // checked against the file size on opening
        do {
            while position < end {
                let chunk = try Self.read(handle, at: position, count: min(Self.readChunk, end - position), path: path)
                position += chunk.count
                if let decoder {
                    try decoder.feed(chunk, into: take)
                } else {
                    try chunk.withUnsafeBytes { piece in Result { () throws(TesseraError) in try take(piece) } }.get()
                }
            }
            try decoder?.finish(into: take)
        } catch {
            throw error.located(file: path, origin: .bundle).explained(entry)
        }
        guard produced == entry.uncompressedSize else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle,
                               reason: "'\(entry.name)' at offset \(entry.recordOffset) has \(produced) bytes, not \(entry.uncompressedSize)")
        }
        guard hasher.finalize() == entry.sha256 else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle,
                               reason: "'\(entry.name)' at offset \(entry.recordOffset) does not match its SHA-256")
        }
    }

    /// The traits an entry's record header carries (`appearance=dark;idiom=phone;scale=3x`), read
    /// from the bytes between the record's start and its payload; the header's CRC is checked.
    public func traits(of entry: BundleIndex.Entry) throws(TesseraError) -> String {
        // magic 4 + headerLength 4 + header + CRC 4 + payloadLength 8 lie before the payload.
        let prefixLength = entry.payloadOffset - entry.recordOffset
        guard prefixLength >= 20, prefixLength <= BundleRecord.maxHeaderLength + 20 else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle,
                               reason: "'\(entry.name)' at offset \(entry.recordOffset): the index places its payload \(prefixLength) bytes after the record start")
        }
        let bytes = try Self.read(handle, at: entry.recordOffset, count: prefixLength, path: path)
        let headerLength = Int(bytes.readLittleEndian(UInt32.self, at: 4))
        guard Array(bytes[0..<4]) == BundleRecord.magic, headerLength == prefixLength - 20,
              bytes.readLittleEndian(UInt32.self, at: 8 + headerLength) == CRC32.checksum(Array(bytes[8..<8 + headerLength])),
              let header = BundleRecord.decodeHeader(bytes[8..<8 + headerLength]), header.name == entry.name else {
            throw TesseraError(.invalidInput, file: path, origin: .bundle,
                               reason: "'\(entry.name)' at offset \(entry.recordOffset): the record header is damaged or names another entry")
        }
        return header.traits
    }

    /// One entry's contents in memory, checked against the index's SHA-256; entries over
    /// `limits.maxInMemorySize` are refused (stream them with `read(_:into:)`).
    public func contents(of entry: BundleIndex.Entry) throws(TesseraError) -> [UInt8] {
        guard entry.uncompressedSize <= limits.maxInMemorySize else {
            throw TesseraError(.limitExceeded, file: path, origin: .bundle,
                               reason: "'\(entry.name)' is \(entry.uncompressedSize) bytes, over the \(limits.maxInMemorySize)-byte limit for reading into memory")
        }
        var contents: [UInt8] = []
        contents.reserveCapacity(min(entry.uncompressedSize, Self.readChunk))
        try read(entry) { (piece) throws(TesseraError) in contents.append(contentsOf: piece) }
        return contents
    }

    package static func read(_ handle: FileHandle, at offset: Int, count: Int, path: String) throws(TesseraError) -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else {
                throw TesseraError(.invalidInput, file: path, origin: .bundle, reason: "truncated at offset \(offset)")
            }
            return Array(data)
        } catch let error as TesseraError {
            throw error
        } catch {
            throw TesseraError(.io, file: path, origin: .bundle, reason: "read failed: \(error.localizedDescription)")
        }
    }
}

private extension TesseraError {
    /// Names the entry a decompression failure concerns.
    func explained(_ entry: BundleIndex.Entry) -> TesseraError {
        var copy = self
        copy.reason = "'\(entry.name)' at offset \(entry.recordOffset): \(reason)"
        return copy
    }
}
