import TesseraCore

/// A bundle read by ranges, as from a server: its footer (the last `BundleFooter.size` bytes),
/// then its index record, then any one entry's payload, each checked as `BundleFile` checks a
/// bundle on disk. The caller fetches the bytes; this says what they mean.
public enum BundleRanges {
    /// Where the index record is, from the bundle's last `BundleFooter.size` bytes.
    public static func indexRange(footer bytes: [UInt8], bundleSize: Int,
                                  limits: BundleLimits = BundleLimits()) throws(TesseraError) -> Range<Int> {
        guard let footer = BundleFooter.decode(bytes) else {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "no valid footer: not a Tessera bundle, or truncated")
        }
        let recordsEnd = bundleSize - BundleFooter.size
        guard footer.indexOffset <= recordsEnd, footer.indexLength <= recordsEnd - footer.indexOffset else {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "the footer points past the end")
        }
        guard footer.indexLength <= limits.maxIndexLength else {
            throw TesseraError(.limitExceeded, origin: .bundle,
                               reason: "the index is \(footer.indexLength) bytes, over the \(limits.maxIndexLength)-byte limit")
        }
        return footer.indexOffset..<footer.indexOffset + footer.indexLength
    }

    /// The index, from the bytes of its record (at `offset` in the bundle).
    public static func index(record bytes: [UInt8], at offset: Int, limits: BundleLimits = BundleLimits()) throws(TesseraError) -> BundleIndex {
        let reader = BundleStreamReader(limits: BundleLimits(maxPayloadLength: limits.maxIndexLength))
        let events = reader.feed(bytes) + reader.finish()
        guard events.count == 1, case .record(let record, _) = events[0], record.kind == .index,
              record.compression == .stored, let index = BundleIndex.decode(record.payload) else {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "the index record is damaged")
        }
        if let problem = index.problem(recordsEnd: offset, limits: limits) {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "bad index: \(problem)")
        }
        return index
    }

    /// An entry's contents from its payload's bytes (`payloadOffset`, `payloadLength`),
    /// decompressed, and checked against the index's size and SHA-256.
    public static func contents(of entry: BundleIndex.Entry, payload: [UInt8]) throws(TesseraError) -> [UInt8] {
        guard payload.count == entry.payloadLength else {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "'\(entry.name)': \(payload.count) payload bytes, not \(entry.payloadLength)")
        }
        var contents: [UInt8] = []
        if entry.compression == .xz {
            let decoder = try XZStreamDecoder(expectedSize: entry.uncompressedSize)
            let take = { (piece: UnsafeRawBufferPointer) throws(TesseraError) in contents.append(contentsOf: piece) }
            try decoder.feed(payload, into: take)
            try decoder.finish(into: take)
        } else {
            contents = payload
        }
        guard contents.count == entry.uncompressedSize, ContentHash.of(contents) == entry.sha256 else {
            throw TesseraError(.invalidInput, origin: .bundle, reason: "'\(entry.name)' does not match its size and SHA-256")
        }
        return contents
    }
}
