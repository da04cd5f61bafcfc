import TesseraCore

/// Writes PNGs by hand for tests that need what Tessera's encoder never writes: 16-bit samples,
/// a chosen filter on each row, image data split into many IDATs, tRNS, damaged chunks. Deflate
/// "stored" blocks keep it simple; the filters are applied here, forwards, from the raw samples.
struct HandMadePNG {
    var width: Int
    var height: Int
    var colorType: UInt8
    var bitDepth: UInt8
    /// Unfiltered rows, `height` of `rowBytes` each.
    var samples: [UInt8]
    /// The filter of each row, cycled when shorter than the image.
    var filters: [UInt8] = [0]
    /// The IDAT payload is cut into pieces of at most this many bytes.
    var idatPiece = Int.max
    var transparency: [UInt8]? = nil

    var channels: Int { [0: 1, 2: 3, 4: 2, 6: 4][Int(colorType)]! }
    var bytesPerPixel: Int { channels * Int(bitDepth) / 8 }
    var rowBytes: Int { width * bytesPerPixel }

    /// The filtered rows, each after its filter-type byte: what the zlib stream holds.
    func filteredRows() -> [UInt8] {
        var out: [UInt8] = []
        let bpp = bytesPerPixel
        for y in 0..<height {
            let filter = filters[y % filters.count]
            out.append(filter)
            for x in 0..<rowBytes {
                let raw = Int(samples[y * rowBytes + x])
                let a = x >= bpp ? Int(samples[y * rowBytes + x - bpp]) : 0
                let b = y > 0 ? Int(samples[(y - 1) * rowBytes + x]) : 0
                let c = x >= bpp && y > 0 ? Int(samples[(y - 1) * rowBytes + x - bpp]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                out.append(UInt8(truncatingIfNeeded: raw - predictor))
            }
        }
        return out
    }

    func bytes(imageData: [UInt8]? = nil) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += Self.chunk("IHDR", Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
                          + [bitDepth, colorType, 0, 0, 0])
        if let transparency { png += Self.chunk("tRNS", transparency) }
        let stream = imageData ?? Self.zlibStored(filteredRows())
        var offset = 0
        repeat {
            let length = min(idatPiece, stream.count - offset)
            png += Self.chunk("IDAT", Array(stream[offset..<offset + length]))
            offset += length
        } while offset < stream.count
        png += Self.chunk("IEND", [])
        return png
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = CRC32.checksum(body)
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
