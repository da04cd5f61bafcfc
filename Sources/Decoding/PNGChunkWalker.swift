import TesseraCore

/// Walks a PNG's chunks from the first IDAT's data on: hands out the compressed image data a piece
/// at a time, checking each IDAT's CRC, then reads the chunks after it up to IEND, judging them as
/// libpng does (a damaged critical chunk is an error, a damaged ancillary one a warning).
final class PNGChunkWalker {
    private let stream: PNGByteStream
    private let path: String
    /// Bytes of the current IDAT not yet handed out.
    private var remaining: Int
    var remainingInChunk: Int { remaining }
    private var crc: UInt32
    /// The header of the first chunk after the image data, once the IDATs have ended.
    private var following: (length: Int, type: UInt32)?
    private(set) var warnings: [String] = []

    /// `firstLength`: the first IDAT's length, whose header libpng has already read.
    init(stream: PNGByteStream, firstLength: UInt32, path: String) {
        self.stream = stream
        self.path = path
        remaining = Int(firstLength)
        crc = Self.checksum(0, of: ChunkType.idat)
    }

    /// The next piece of compressed image data, nil once the IDATs have ended.
    func nextImageData() throws(TesseraError) -> UnsafeRawBufferPointer? {
        while following == nil {
            if remaining > 0 {
                let piece = try stream.take(upTo: remaining)
                crc = CRC32.checksum(piece, continuing: crc)
                remaining -= piece.count
                return piece
            }
            try checkCRC(of: ChunkType.idat)
            let (length, type) = try readHeader()
            if type == ChunkType.idat {
                remaining = length
                crc = Self.checksum(0, of: ChunkType.idat)
            } else {
                following = (length, type)
            }
        }
        return nil
    }

    /// Skips the rest of the image data (after the zlib stream has ended or failed).
    func skipImageData() throws(TesseraError) {
        while try nextImageData() != nil {}
    }

    /// Reads every chunk after the image data up to and including IEND.
    func finish() throws(TesseraError) {
        try skipImageData()
        guard var (length, type) = following else { return }
        var sawOtherChunk = false
        while true {
            crc = Self.checksum(0, of: type)
            try stream.skip(length) { crc = CRC32.checksum($0, continuing: crc) }
            try checkCRC(of: type)
            let name = ChunkType.name(type)
            switch type {
            case ChunkType.iend:
                if length != 0 { warnings.append("\(name): invalid") }
                return
            case ChunkType.idat:
                // libpng ignores IDATs straight after the image data, and warns of any after another chunk.
                if sawOtherChunk && length > 0 { warnings.append("Too many IDATs found") }
            case ChunkType.ihdr:
                throw failure("\(name): out of place")
            case ChunkType.plte:
                warnings.append("\(name): out of place")
            default:
                if ChunkType.isCritical(type) { throw failure("\(name): unknown critical chunk") }
            }
            if type != ChunkType.idat { sawOtherChunk = true }
            (length, type) = try readHeader()
        }
    }

    func failure(_ reason: String) -> TesseraError {
        TesseraError(.invalidInput, file: path, origin: .decode, reason: "PNG: \(reason)")
    }

    private func readHeader() throws(TesseraError) -> (Int, UInt32) {
        let length = try stream.readUInt32()
        let type = try stream.readUInt32()
        guard ChunkType.isValid(type) else { throw failure("invalid chunk type") }
        guard length <= 0x7fff_ffff else { throw failure("\(ChunkType.name(type)): PNG unsigned integer out of range") }
        return (Int(length), type)
    }

    private func checkCRC(of type: UInt32) throws(TesseraError) {
        let stored = try stream.readUInt32()
        guard stored != crc else { return }
        let message = "\(ChunkType.name(type)): CRC error"
        if ChunkType.isCritical(type) { throw failure(message) }
        warnings.append(message)
    }

    private static func checksum(_ initial: UInt32, of type: UInt32) -> UInt32 {
        var bytes = type.bigEndian
        return withUnsafeBytes(of: &bytes) { CRC32.checksum($0, continuing: initial) }
    }
}

/// Chunk types as the big-endian numbers of their four letters.
enum ChunkType {
    static let ihdr: UInt32 = 0x4948_4452
    static let plte: UInt32 = 0x504C_5445
    static let idat: UInt32 = 0x4944_4154
    static let iend: UInt32 = 0x4945_4E44

    /// Four ASCII letters, as PNG requires.
    static func isValid(_ type: UInt32) -> Bool {
        (0..<4).allSatisfy { index in
            let byte = UInt8(truncatingIfNeeded: type >> (24 - 8 * index))
            return (65...90).contains(byte) || (97...122).contains(byte)
        }
    }

    /// Critical chunks have an upper-case first letter.
    static func isCritical(_ type: UInt32) -> Bool { type & 0x2000_0000 == 0 }

    static func name(_ type: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}
