import TesseraCore

/// Reads a GIF's block structure in Swift, without decompressing anything: canvas, loop field
/// and each frame's Graphic Control Extension and descriptor. It accepts what giflib refuses but
/// players still time correctly (an out-of-range LZW code size, say), and stops at the first
/// block it cannot parse, keeping what came before.
struct GIFBlockReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String

    /// The frame table; `codeSizes` receives each frame's LZW minimum code size.
    func read(codeSizes: inout [Int]) throws(TesseraError) -> AnimationRecords {
        guard bytes.count >= 13, ImageFormat.sniff(bytes.prefix(6)) == .gif else {
            throw TesseraError(.invalidInput, file: path, origin: .decode, reason: "GIF: the header is truncated")
        }
        var records = AnimationRecords(format: .gif, canvasWidth: u16(6), canvasHeight: u16(8), loopField: nil,
                                       frames: [], truncation: nil)
        var position = 13 + tableSize(flags: bytes[10])
        var control: (delay: Int, disposal: Int)?
        func stop(_ reason: String) {
            records.truncation = "stopped after \(records.frames.count) frames: \(reason)"
        }
        while true {
            guard position < bytes.count else {
                stop("the file ends without a trailer")
                break
            }
            switch bytes[position] {
            case 0x3B:
                return records
            case 0x21:
                guard position + 1 < bytes.count else { stop("truncated extension"); return records }
                let label = bytes[position + 1]
                guard let blocks = subBlocks(from: position + 2) else { stop("truncated extension"); return records }
                if label == 0xF9, let first = blocks.list.first, first.count >= 4 {
                    control = (Int(bytes[first.lowerBound + 1]) | Int(bytes[first.lowerBound + 2]) << 8,
                               (Int(bytes[first.lowerBound]) >> 2) & 7)
                }
                if label == 0xFF, blocks.list.count >= 2, blocks.list[0].count == 11 {
                    let name = Array(bytes[blocks.list[0]])
                    let data = blocks.list[1]
                    if name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8),
                       data.count >= 3, bytes[data.lowerBound] == 1 {
                        // A file with several loop blocks: the last one counts, as gifsicle reads it.
                        records.loopField = Int(bytes[data.lowerBound + 1]) | Int(bytes[data.lowerBound + 2]) << 8
                    }
                }
                position = blocks.end
            case 0x2C:
                guard position + 10 <= bytes.count else { stop("truncated image descriptor"); return records }
                let flags = bytes[position + 9]
                let frame = AnimationRecords.Frame(
                    rawDelay: control?.delay ?? 0, delayMs: (control?.delay ?? 0) * 10,
                    disposal: ["none", "asis", "background", "previous"][min(control?.disposal ?? 0, 3)],
                    x: u16(position + 1), y: u16(position + 3), width: u16(position + 5), height: u16(position + 7),
                    blends: true)
                control = nil
                let data = position + 10 + tableSize(flags: flags) + 1  // past the LZW code size byte
                if data - 1 < bytes.count { codeSizes.append(Int(bytes[data - 1])) }
                guard data <= bytes.count, let blocks = subBlocks(from: data) else {
                    stop("frame \(records.frames.count + 1)'s data is truncated")
                    return records
                }
                records.frames.append(frame)
                position = blocks.end
            default:
                stop("unknown block type \(bytes[position]) at offset \(position)")
                return records
            }
        }
        return records
    }

    func read() throws(TesseraError) -> AnimationRecords {
        var ignored: [Int] = []
        return try read(codeSizes: &ignored)
    }

    private func u16(_ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private func tableSize(flags: UInt8) -> Int {
        flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
    }

    /// The data sub-blocks starting at `offset`, and where the block terminator ends; nil if truncated.
    private func subBlocks(from offset: Int) -> (list: [Range<Int>], end: Int)? {
        var position = offset
        var list: [Range<Int>] = []
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1
            if length == 0 { return (list, position) }
            guard position + length <= bytes.count else { return nil }
            list.append(position..<position + length)
            position += length
        }
        return nil
    }
}
