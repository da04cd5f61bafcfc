/// GIFs written byte by byte, for structures encoders never produce: images without a Graphic
/// Control Extension, several images per frame, chosen disposal per image. Modelled on the files
/// of gdk-pixbuf's GIF test suite (`animation-multi-image*.gif`, `dispose-restore-previous.gif`).
struct HandMadeGIF {
    /// Palette indices used by the test images.
    static let black: UInt8 = 0, white: UInt8 = 1, red: UInt8 = 2, green: UInt8 = 3
    static let palette: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0]

    struct Image {
        /// nil: no Graphic Control Extension at all.
        var delayCentiseconds: Int?
        var disposal = 0
        var x = 0, y = 0, width: Int, height: Int
        var pixels: [UInt8]
    }

    var width: Int
    var height: Int
    var images: [Image]

    var bytes: [UInt8] {
        var out = Array("GIF89a".utf8)
        out += u16(width) + u16(height) + [0x81, 0, 0]  // global table of 4 colours
        out += Self.palette
        // NETSCAPE2.0, loop forever.
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for image in images {
            if let delay = image.delayCentiseconds {
                out += [0x21, 0xF9, 4, UInt8(image.disposal << 2)] + u16(delay) + [0, 0]
            }
            out += [0x2C] + u16(image.x) + u16(image.y) + u16(image.width) + u16(image.height) + [0]
            out += [2] + Self.lzw(image.pixels)
        }
        return out + [0x3B]
    }

    private func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// LZW data that never grows the code table: a clear code before every pixel keeps every
    /// code 3 bits wide (minimum code size 2: clear 4, end 5).
    private static func lzw(_ pixels: [UInt8]) -> [UInt8] {
        var codes: [Int] = []
        for pixel in pixels { codes += [4, Int(pixel)] }
        codes.append(5)
        var data: [UInt8] = []
        var accumulator = 0, bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += 3
            while bits >= 8 {
                data.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { data.append(UInt8(accumulator)) }
        var blocks: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 255) {
            let chunk = data[start..<min(start + 255, data.count)]
            blocks += [UInt8(chunk.count)] + chunk
        }
        return blocks + [0]
    }

    /// gdk-pixbuf's `animation-multi-image.gif` in kind: four frames of 500 ms on a 2×2 canvas,
    /// each drawn as two images (top row with no delay, bottom row with 50 cs). With
    /// `explicitZero`, the top rows carry a Graphic Control Extension saying 0, as in
    /// `animation-multi-image-explicit-zero-delay.gif`.
    static func multiImage(explicitZero: Bool) -> HandMadeGIF {
        let colours: [(UInt8, UInt8)] = [(black, red), (red, black), (white, green), (green, white)]
        let images = colours.flatMap { top, bottom in
            [Image(delayCentiseconds: explicitZero ? 0 : nil, width: 2, height: 1, pixels: [top, top]),
             Image(delayCentiseconds: 50, y: 1, width: 2, height: 1, pixels: [bottom, bottom])]
        }
        return HandMadeGIF(width: 2, height: 2, images: images)
    }

    /// gdk-pixbuf's `dispose-restore-previous.gif`: a black 2×2 image with no delay, then four
    /// 1×1 white dots at (0,0), (1,0), (1,1), (0,1), each 50 cs and disposed to previous.
    static func disposeRestorePrevious() -> HandMadeGIF {
        let dots = [(0, 0), (1, 0), (1, 1), (0, 1)].map {
            Image(delayCentiseconds: 50, disposal: 3, x: $0.0, y: $0.1, width: 1, height: 1, pixels: [white])
        }
        return HandMadeGIF(width: 2, height: 2,
                           images: [Image(width: 2, height: 2, pixels: [black, black, black, black])] + dots)
    }

    /// Four full-canvas images, none with a delay: a "play as fast as you can" animation.
    static func noDelays() -> HandMadeGIF {
        HandMadeGIF(width: 1, height: 1, images: [black, white, red, green].map {
            Image(delayCentiseconds: 0, width: 1, height: 1, pixels: [$0])
        })
    }
}
