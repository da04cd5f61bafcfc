import Delivery
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TesseraCore

/// A payload whose compression was decided (and done) before the bundle is written, so that one
/// compression serves every bundle holding the same file.
public struct PreparedPayload: Sendable {
    public var compression: BundleRecord.Compression
    /// The payload as stored.
    public var stored: [UInt8]
    public var uncompressedSize: Int
    /// SHA-256 of the uncompressed contents.
    public var sha256: ContentHash

    public init(compression: BundleRecord.Compression, stored: [UInt8], uncompressedSize: Int, sha256: ContentHash) {
        self.compression = compression
        self.stored = stored
        self.uncompressedSize = uncompressedSize
        self.sha256 = sha256
    }

    /// Reads a file and compresses it when `compressor` says it pays; nil when it is to be stored
    /// (the bundle then streams the file itself, without holding it).
    public static func compressed(fileAt path: String, kind: BundleRecord.Kind, name: String,
                                  compressor: PayloadCompressor) throws(TesseraError) -> PreparedPayload? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .pack, reason: "cannot read a built file")
        }
        let contents = [UInt8](data)
        guard let xz = try compressor.compressIfItPays(contents, kind: kind, name: name) else { return nil }
        return PreparedPayload(compression: .xz, stored: xz, uncompressedSize: contents.count,
                               sha256: ContentHash.of(contents))
    }
}

/// A finished bundle: its size, SHA-256 and index.
public struct WrittenBundleFile: Sendable {
    public let bytes: Int
    public let sha256: ContentHash
    public let index: BundleIndex

    public init(bytes: Int, sha256: ContentHash, index: BundleIndex) {
        self.bytes = bytes
        self.sha256 = sha256
        self.index = index
    }
}

/// Writes a bundle record by record, straight to its file (atomically: nothing appears under the
/// final name until `finish()`), then the index and footer.
///
/// Stored files are streamed in chunks, so a bundle of any size is written in constant memory;
/// the bundle's own SHA-256 is computed as it is written, so it is never read back.
public final class BundleWriter {
    public let compressor: PayloadCompressor
    private let file: AtomicFileWriter
    private var offset = 0
    private var hasher = ContentHasher()
    private var entries: [BundleIndex.Entry] = []
    private static let chunkSize = 1 << 20

    public init(path: String, compressor: PayloadCompressor = PayloadCompressor()) throws(TesseraError) {
        file = try AtomicFileWriter(path: path)
        self.compressor = compressor
    }

    /// Adds one entry held in memory, compressed when the compressor says it pays.
    public func add(name: String, kind: BundleRecord.Kind, traits: String, contents: [UInt8]) throws(TesseraError) {
        if let xz = try compressor.compressIfItPays(contents, kind: kind, name: name) {
            try add(name: name, kind: kind, traits: traits, payload: PreparedPayload(
                compression: .xz, stored: xz, uncompressedSize: contents.count, sha256: ContentHash.of(contents)))
        } else {
            try add(name: name, kind: kind, traits: traits, payload: PreparedPayload(
                compression: .stored, stored: contents, uncompressedSize: contents.count, sha256: ContentHash.of(contents)))
        }
    }

    /// Adds one entry whose stored bytes are ready.
    public func add(name: String, kind: BundleRecord.Kind, traits: String, payload: PreparedPayload) throws(TesseraError) {
        let record = BundleRecord(name: name, kind: kind, compression: payload.compression,
                                  uncompressedSize: payload.uncompressedSize, traits: traits, payload: [])
        let (recordOffset, payloadOffset) = try begin(record, payloadLength: payload.stored.count)
        try write(payload.stored)
        var crc: [UInt8] = []
        crc.appendLittleEndian(CRC32.checksum(payload.stored))
        try write(crc)
        entries.append(BundleIndex.Entry(name: name, kind: kind, recordOffset: recordOffset, payloadOffset: payloadOffset,
                                         payloadLength: payload.stored.count, compression: payload.compression,
                                         uncompressedSize: payload.uncompressedSize, sha256: payload.sha256))
    }

    /// Adds a file stored as it is, streamed from disk in 1 MiB chunks.
    public func addFile(name: String, kind: BundleRecord.Kind, traits: String, path: String) throws(TesseraError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: path, origin: .pack, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw TesseraError(.io, file: path, origin: .pack, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        let record = BundleRecord(name: name, kind: kind, compression: .stored, uncompressedSize: size, traits: traits,
                                  payload: [])
        let (recordOffset, payloadOffset) = try begin(record, payloadLength: size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.chunkSize, max(size, 1)), alignment: 16)
        defer { buffer.deallocate() }
        var crc: UInt32 = 0
        var contentHash = ContentHasher()
        var copied = 0
        while copied < size {
            let count = read(descriptor, buffer.baseAddress, min(buffer.count, size - copied))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw TesseraError(.io, file: path, origin: .pack, reason: "the file shrank while it was being packed")
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            crc = CRC32.checksum(chunk, continuing: crc)
            contentHash.update(chunk)
            try write(chunk)
            copied += count
        }
        var trailer: [UInt8] = []
        trailer.appendLittleEndian(crc)
        try write(trailer)
        entries.append(BundleIndex.Entry(name: name, kind: kind, recordOffset: recordOffset, payloadOffset: payloadOffset,
                                         payloadLength: size, compression: .stored, uncompressedSize: size,
                                         sha256: contentHash.finalize()))
    }

    /// Writes the index record and the footer, flushes, and renames the bundle into place.
    public func finish() throws(TesseraError) -> WrittenBundleFile {
        let index = BundleIndex(entries: entries)
        let payload = index.encoded()
        let record = BundleRecord(name: "__index__", kind: .index, compression: .stored, uncompressedSize: payload.count,
                                  traits: "", payload: payload)
        let indexOffset = offset
        try write(record.encoded())
        try write(BundleFooter(indexOffset: indexOffset, indexLength: offset - indexOffset).encoded())
        try file.commit()
        return WrittenBundleFile(bytes: offset, sha256: hasher.finalize(), index: index)
    }

    /// Pads so a ready bitmap's payload starts at a multiple of 4096, then writes the record's prefix.
    private func begin(_ record: BundleRecord, payloadLength: Int) throws(TesseraError) -> (record: Int, payload: Int) {
        let prefix = record.prefix(payloadLength: payloadLength)
        if record.kind == .readyBitmap {
            let padding = (4096 - (offset + prefix.count) % 4096) % 4096
            try write([UInt8](repeating: 0, count: padding))
        }
        let recordOffset = offset
        try write(prefix)
        return (recordOffset, offset)
    }

    private func write(_ bytes: [UInt8]) throws(TesseraError) {
        guard !bytes.isEmpty else { return }
        try file.append(bytes)
        hasher.update(bytes)
        offset += bytes.count
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) {
        guard !bytes.isEmpty else { return }
        try file.append(bytes)
        hasher.update(bytes)
        offset += bytes.count
    }
}
