import TesseraCore

/// Writes a bundle record by record, straight to its file (atomically: nothing appears under the
/// final name until `finish()`), then the index and footer.
public final class BundleWriter {
    /// Compress a payload only when xz saves at least this fraction of it.
    public let minimumSaving: Double
    public let compressionLevel: UInt32
    private let file: AtomicFileWriter
    private var offset = 0
    private var entries: [BundleIndex.Entry] = []

    public init(path: String, minimumSaving: Double = 0.05, compressionLevel: UInt32 = 6) throws(TesseraError) {
        file = try AtomicFileWriter(path: path)
        self.minimumSaving = minimumSaving
        self.compressionLevel = compressionLevel
    }

    /// Adds one entry. Ready bitmaps are stored, never compressed, at a 4096-byte-aligned payload
    /// offset, so an app can memory-map them in place; everything else is xz-compressed when that
    /// saves at least `minimumSaving`.
    /// `compressed`, when given, is `contents` already xz-compressed at this writer's level (so a
    /// caller can compress many entries in parallel and still write them in a fixed order).
    public func add(name: String, kind: BundleRecord.Kind, traits: String, contents: [UInt8],
                    compressed precompressed: [UInt8]? = nil) throws(TesseraError) {
        var record = BundleRecord(name: name, kind: kind, compression: .stored, uncompressedSize: contents.count,
                                  traits: traits, payload: contents)
        if kind != .readyBitmap, !contents.isEmpty {
            let compressed: [UInt8]
            if let precompressed { compressed = precompressed } else {
                compressed = try XZ.compress(contents, level: compressionLevel)
            }
            if Double(compressed.count) <= Double(contents.count) * (1 - minimumSaving) {
                record.compression = .xz
                record.payload = compressed
            }
        }
        let prefix = record.prefix()
        if kind == .readyBitmap {
            let payloadStart = offset + prefix.count
            let padding = (4096 - payloadStart % 4096) % 4096
            try write([UInt8](repeating: 0, count: padding))
        }
        let recordOffset = offset
        try write(prefix)
        let payloadOffset = offset
        try write(record.payload)
        var crc: [UInt8] = []
        crc.appendLittleEndian(XZ.crc32(record.payload))
        try write(crc)
        entries.append(BundleIndex.Entry(name: name, kind: kind, recordOffset: recordOffset, payloadOffset: payloadOffset,
                                         payloadLength: record.payload.count, compression: record.compression,
                                         uncompressedSize: contents.count, sha256: ContentHash.of(contents)))
    }

    /// Writes the index record and the footer, flushes, and renames the bundle into place.
    /// Returns the bundle's size and the index.
    public func finish() throws(TesseraError) -> (bytes: Int, index: BundleIndex) {
        let index = BundleIndex(entries: entries)
        let payload = index.encoded()
        let record = BundleRecord(name: "__index__", kind: .index, compression: .stored, uncompressedSize: payload.count,
                                  traits: "", payload: payload)
        let indexOffset = offset
        try write(record.encoded())
        try write(BundleFooter(indexOffset: indexOffset, indexLength: offset - indexOffset).encoded())
        try file.commit()
        return (offset, index)
    }

    private func write(_ bytes: [UInt8]) throws(TesseraError) {
        try file.append(bytes)
        offset += bytes.count
    }
}
