import CWebP
import TesseraCore

/// What a WebP file holds, read from its RIFF chunk headers with seeks: the payload of a chunk is
/// read only for VP8X, ICCP, EXIF, ANIM and the first bytes of the image bitstream, so the probe
/// costs a few small reads however large the file, and still reaches ICC and EXIF chunks that
/// follow the image data.
///
/// It reads what libwebp's demuxer reads (the tests compare the two on every WebP in the corpus):
/// ICCP and EXIF count only when VP8X's flags announce them, the first of each wins.
struct WebPFileLayout {
    let info: ImageInfo
    /// Bytes from the file's start to the end of the RIFF payload: all the decoder is fed.
    let riffEnd: Int

    /// Walks the chunks through `read(offset, count)`, which returns fewer bytes only at the end
    /// of the file; `fileSize` bounds every chunk.
    init(path: String, fileSize: Int, read: (Int, Int) -> [UInt8]) throws(TesseraError) {
        func failure(_ reason: String) -> TesseraError {
            TesseraError(.invalidInput, file: path, origin: .decode, reason: "WebP: \(reason)")
        }
        let header = read(0, 12)
        guard header.count == 12, header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("WEBP".utf8) else {
            throw failure("not a RIFF WebP file")
        }
        let riffEnd = 8 + Self.littleEndian(header, at: 4, bytes: 4)
        guard riffEnd <= fileSize else {
            throw failure("the file is truncated: its RIFF header gives \(riffEnd) bytes, the file has \(fileSize)")
        }
        var offset = 12
        var flags = 0
        var canvas: (width: Int, height: Int)?
        var icc: [UInt8]?, exif: [UInt8]?
        var loopCount: Int?
        var frames = 0
        var alphaChunk = false
        var bitstream: (features: WebPBitstreamFeatures, width: Int, height: Int)?
        while offset + 8 <= riffEnd {
            let chunk = read(offset, 8)
            guard chunk.count == 8 else { throw failure("the file is truncated in the chunk at byte \(offset)") }
            let name = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = Self.littleEndian(chunk, at: 4, bytes: 4)
            let payload = offset + 8
            guard payload + size <= riffEnd else {
                throw failure("the \(name.trimmingTrailingSpaces) chunk at byte \(offset) runs past the end of the file (truncated)")
            }
            let first = offset == 12
            switch name {
            case "VP8X" where first:
                let body = read(payload, 10)
                guard body.count == 10 else { throw failure("the VP8X chunk is too short") }
                flags = Int(body[0])
                canvas = (1 + Self.littleEndian(body, at: 4, bytes: 3), 1 + Self.littleEndian(body, at: 7, bytes: 3))
            case "ICCP" where flags & Self.iccFlag != 0 && icc == nil:
                icc = read(payload, size)
            case "EXIF" where flags & Self.exifFlag != 0 && exif == nil:
                exif = read(payload, size)
            case "ANIM" where flags & Self.animationFlag != 0:
                let body = read(payload, 6)
                if body.count == 6 { loopCount = Self.littleEndian(body, at: 4, bytes: 2) }
            case "ANMF" where flags & Self.animationFlag != 0:
                frames += 1
            case "ALPH" where bitstream == nil && flags & Self.animationFlag == 0:
                alphaChunk = true
            case "VP8 ", "VP8L":
                guard bitstream == nil, flags & Self.animationFlag == 0 else { break }
                // libwebp reads the size and alpha bit from the chunk header and the first bytes.
                let head = read(offset, min(8 + size, 40))
                var features = WebPBitstreamFeatures()
                let status = head.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
                guard status == VP8_STATUS_OK else { throw failure(WebPContainer.describe(status)) }
                bitstream = (features, Int(features.width), Int(features.height))
                frames = 1
                if !first && canvas == nil { throw failure("the image data is not the first chunk of a simple file") }
            default:
                break
            }
            if first && name != "VP8X" && name != "VP8 " && name != "VP8L" {
                throw failure("the first chunk is \(name.trimmingTrailingSpaces), not VP8, VP8L or VP8X")
            }
            // Simple files hold the bitstream alone; libwebp's demuxer reads nothing after it.
            if first && name != "VP8X" { break }
            offset = payload + size + (size & 1)
        }
        let animated = flags & Self.animationFlag != 0
        guard animated || bitstream != nil else { throw failure("the file has no image data (truncated)") }
        guard !animated || frames > 0 else { throw failure("the animation has no frames") }
        let size = canvas ?? (bitstream!.width, bitstream!.height)
        if let bitstream, !animated, let canvas, canvas != (bitstream.width, bitstream.height) {
            throw failure("the canvas is \(canvas.width)×\(canvas.height) but the image \(bitstream.width)×\(bitstream.height)")
        }
        // As libwebp's WebPGetFeatures: the VP8X alpha flag or an ALPH chunk; a VP8L header's own bit wins.
        let lossless = bitstream?.features.format == 2
        let hasAlpha = animated ? flags & Self.alphaFlag != 0
            : (lossless ? bitstream!.features.has_alpha != 0 : (flags & Self.alphaFlag != 0 || alphaChunk))
        info = WebPContainer.makeInfo(width: size.width, height: size.height,
                                      bitstream: WebPBitstream(libwebpFormat: animated ? 0 : (lossless ? 2 : 1)),
                                      hasAlpha: hasAlpha, frameCount: animated ? frames : 1,
                                      loopCount: animated ? (loopCount ?? 0) : nil, icc: icc, exif: exif)
        self.riffEnd = riffEnd
    }

    /// Walks the file at `file`'s descriptor with `pread`.
    init(file: OpenFile) throws(TesseraError) {
        try self.init(path: file.path, fileSize: file.size) { offset, count in file.read(at: offset, count: count) }
    }

    // VP8X flag bits (WebP container specification).
    private static let animationFlag = 0x02
    private static let exifFlag = 0x08
    private static let alphaFlag = 0x10
    private static let iccFlag = 0x20

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, bytes count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
