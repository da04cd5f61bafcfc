import CLZMA

/// Writes 16-bit grayscale PNGs for tests, by hand: Tessera's encoders write 8 bits, and the
/// tests need 16-bit inputs with known sample values. Deflate "stored" blocks keep it simple.
enum SixteenBitPNG {
    static func gray(width: Int, height: Int, samples: [UInt16]) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let value = samples[y * width + x]
                raw += [UInt8(value >> 8), UInt8(value & 0xff)]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [16, 0, 0, 0, 0]  // depth 16, gray, deflate, adaptive filtering, no interlace
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
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

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { lzma_crc32($0.baseAddress, $0.count, 0) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
