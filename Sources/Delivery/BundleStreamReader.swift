import TesseraCore

/// Reads a bundle from a stream of chunks of any size — one byte at a time, the whole file, or
/// anything between — and yields exactly the same events whatever the chunking.
///
/// It enforces hard maximums on header and payload lengths before buffering them. A damaged
/// record (bad header CRC, impossible length, bad payload CRC) is reported with its offset (and
/// its name, when the header is intact) and skipped: the reader then resynchronises at the next
/// magic whose header CRC is valid. It never waits for bytes that a bad length asks for beyond
/// its limits, so it cannot stall, and it holds at most one record's bytes.
public final class BundleStreamReader {
    public enum Event: Sendable, Equatable {
        case record(BundleRecord, offset: Int)
        /// Bytes at `offset` could not be read as a record.
        case damaged(offset: Int, name: String?, reason: String)
    }

    public let limits: BundleLimits
    public var maxPayloadLength: Int { limits.maxPayloadLength }
    private var buffer: [UInt8] = []
    private var start = 0
    /// File offset of `buffer[start]`.
    private var offset = 0
    /// Offset where unparseable bytes began, reported once when parsing resumes.
    private var garbageStart: Int?

    public init(limits: BundleLimits = .standard) {
        self.limits = limits
    }

    /// A reader with the standard limits but this payload maximum.
    public convenience init(maxPayloadLength: Int) {
        var limits = BundleLimits.standard
        limits.maxPayloadLength = maxPayloadLength
        self.init(limits: limits)
    }

    /// Feeds the next chunk; returns the events it completes.
    public func feed(_ chunk: some Collection<UInt8>) -> [Event] {
        buffer.append(contentsOf: chunk)
        var events: [Event] = []
        while let event = step(atEnd: false) { events.append(contentsOf: event) }
        compact()
        return events
    }

    /// Signals the end of the stream; reports whatever is left as damaged (a truncated record).
    public func finish() -> [Event] {
        var events: [Event] = []
        while let event = step(atEnd: true) { events.append(contentsOf: event) }
        flushGarbage(into: &events)
        if start < buffer.count {
            events.append(.damaged(offset: offset, name: nil,
                                   reason: "the stream ends inside a record (\(buffer.count - start) bytes left)"))
            offset += buffer.count - start
            start = buffer.count
        }
        compact()
        return events
    }

    private var available: Int { buffer.count - start }

    private func byte(_ index: Int) -> UInt8 { buffer[start + index] }

    private func u32(_ index: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(buffer[start + index + $1]) << (8 * $1) }
    }

    private func u64(_ index: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(buffer[start + index + $1]) << (8 * UInt64($1)) }
    }

    private func consume(_ count: Int) {
        start += count
        offset += count
    }

    private func flushGarbage(into events: inout [Event]) {
        if let garbage = garbageStart {
            events.append(.damaged(offset: garbage, name: nil,
                                   reason: "\(offset - garbage) bytes that are not a record were skipped"))
            garbageStart = nil
        }
    }

    /// Skips one byte of damage, remembering where the damage began.
    private func skipByte() {
        if garbageStart == nil { garbageStart = offset }
        consume(1)
    }

    /// Parses what it can; nil when more bytes are needed (or none are left).
    private func step(atEnd: Bool) -> [Event]? {
        // Zero padding between records.
        while available > 0, byte(0) == 0, garbageStart == nil { consume(1) }
        guard available >= 4 else { return nil }
        // The footer ends the bundle: not a record, not damage.
        if byte(0) == BundleFooter.magic[0], available >= BundleFooter.size,
           BundleFooter.decode(Array(buffer[start..<(start + BundleFooter.size)])) != nil {
            var events: [Event] = []
            flushGarbage(into: &events)
            consume(BundleFooter.size)
            return events
        }
        if byte(0) == BundleFooter.magic[0], available < BundleFooter.size, !atEnd,
           (0..<min(available, 8)).allSatisfy({ byte($0) == BundleFooter.magic[$0] }) {
            return nil
        }
        guard (0..<4).allSatisfy({ byte($0) == BundleRecord.magic[$0] }) else {
            skipByte()
            return []
        }
        var events: [Event] = []
        guard available >= 8 else { return nil }
        let headerLength = u32(4)
        guard headerLength <= BundleRecord.maxHeaderLength else {
            skipByte()
            return []
        }
        guard available >= 8 + headerLength + 4 + 8 else { return nil }
        let header = buffer[(start + 8)..<(start + 8 + headerLength)]
        let headerCRC = UInt32(truncatingIfNeeded: u32(8 + headerLength))
        guard headerCRC == header.withUnsafeBytes({ CRC32.checksum($0) }),
              let parsed = BundleRecord.decodeHeader(header) else {
            skipByte()
            return []
        }
        flushGarbage(into: &events)
        let payloadLength = u64(12 + headerLength)
        let recordOffset = offset
        guard payloadLength <= UInt64(maxPayloadLength) else {
            events.append(.damaged(offset: recordOffset, name: parsed.name,
                                   reason: "payload length \(payloadLength) is over the \(maxPayloadLength)-byte limit"))
            skipByte()
            garbageStart = nil
            return events
        }
        // The sizes the header declares must agree with the payload length before anything trusts them.
        let declared = parsed.compression == .stored ? (parsed.uncompressedSize == Int(payloadLength) ? nil
            : "a stored payload of \(payloadLength) bytes declares \(parsed.uncompressedSize)")
            : (parsed.uncompressedSize <= limits.maxUncompressedSize ? nil
               : "it declares \(parsed.uncompressedSize) uncompressed bytes, over the \(limits.maxUncompressedSize)-byte limit")
        let payloadStart = 20 + headerLength
        let total = payloadStart + Int(payloadLength) + 4
        guard available >= total else {
            return events.isEmpty ? nil : events
        }
        let payload = Array(buffer[(start + payloadStart)..<(start + payloadStart + Int(payloadLength))])
        let payloadCRC = UInt32(truncatingIfNeeded: u32(payloadStart + Int(payloadLength)))
        if payloadCRC != CRC32.checksum(payload) {
            events.append(.damaged(offset: recordOffset, name: parsed.name, reason: "payload CRC mismatch"))
            consume(total)
            return events
        }
        if let declared {
            // The frame is intact, so the record is skipped whole, like one with a bad payload CRC.
            events.append(.damaged(offset: recordOffset, name: parsed.name, reason: declared))
            consume(total)
            return events
        }
        events.append(.record(BundleRecord(name: parsed.name, kind: parsed.kind, compression: parsed.compression,
                                           uncompressedSize: parsed.uncompressedSize, traits: parsed.traits,
                                           payload: payload), offset: recordOffset))
        consume(total)
        return events
    }

    private func compact() {
        if start > 65536 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
