/// How the unfiltered rows of an 8- or 16-bit gray, gray+alpha, RGB or RGBA PNG become 8-bit RGBA,
/// exactly as libpng's transforms make them (`tessera_png_start_rgba8`): gray copied to R, G and B,
/// 16-bit samples scaled with libpng's rounding, the tRNS colour (compared at full depth) made
/// transparent, and opaque alpha added where the file has none.
struct PNGPixelLayout {
    enum Model { case gray, grayAlpha, rgb, rgba }

    let model: Model
    let sixteenBit: Bool
    let width: Int
    /// The tRNS colour of a gray or RGB image, as stored (gray in all three).
    let transparent: (UInt16, UInt16, UInt16)?

    /// nil for what this layout does not cover (palettes, 1–4 bits a sample): libpng decodes those.
    init?(colorModel: String, bitDepth: Int, width: Int, transparent: (UInt16, UInt16, UInt16)?) {
        switch colorModel {
        case "gray": model = .gray
        case "gray+alpha": model = .grayAlpha
        case "rgb": model = .rgb
        case "rgba": model = .rgba
        default: return nil
        }
        guard bitDepth == 8 || bitDepth == 16 else { return nil }
        let sixteenBit = bitDepth == 16
        self.sixteenBit = sixteenBit
        self.width = width
        // libpng ignores tRNS in images with an alpha channel; an 8-bit image compares its low byte.
        self.transparent = model == .gray || model == .rgb ? transparent.map {
            sixteenBit ? $0 : ($0.0 & 0xff, $0.1 & 0xff, $0.2 & 0xff)
        } : nil
    }

    var channels: Int {
        switch model {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// Bytes a pixel: the distance PNG's filters look back.
    var bytesPerPixel: Int { channels * (sixteenBit ? 2 : 1) }
    var rowBytes: Int { width * bytesPerPixel }

    /// Writes `width` RGBA pixels for one unfiltered row.
    func expand(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        if sixteenBit { expandSixteen(row, into: out) } else { expandEight(row, into: out) }
    }

    private func expandEight(_ s: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>) {
        switch (model, transparent) {
        case (.rgba, _):
            d.update(from: s, count: width * 4)
        case (.rgb, nil):
            for x in 0..<width {
                d[4 &* x] = s[3 &* x]; d[4 &* x &+ 1] = s[3 &* x &+ 1]; d[4 &* x &+ 2] = s[3 &* x &+ 2]
                d[4 &* x &+ 3] = 255
            }
        case (.rgb, let key?):
            for x in 0..<width {
                let r = s[3 &* x], g = s[3 &* x &+ 1], b = s[3 &* x &+ 2]
                d[4 &* x] = r; d[4 &* x &+ 1] = g; d[4 &* x &+ 2] = b
                d[4 &* x &+ 3] = UInt16(r) == key.0 && UInt16(g) == key.1 && UInt16(b) == key.2 ? 0 : 255
            }
        case (.grayAlpha, _):
            for x in 0..<width {
                let v = s[2 &* x]
                d[4 &* x] = v; d[4 &* x &+ 1] = v; d[4 &* x &+ 2] = v; d[4 &* x &+ 3] = s[2 &* x &+ 1]
            }
        case (.gray, let key):
            let transparentValue = key.map { Int($0.0) } ?? -1
            for x in 0..<width {
                let v = s[x]
                d[4 &* x] = v; d[4 &* x &+ 1] = v; d[4 &* x &+ 2] = v
                d[4 &* x &+ 3] = Int(v) == transparentValue ? 0 : 255
            }
        }
    }

    private func expandSixteen(_ s: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>) {
        let channels = channels
        for x in 0..<width {
            let pixel = s + x &* channels &* 2
            let out = d + 4 &* x
            switch model {
            case .gray, .grayAlpha:
                let v = Self.scaled(pixel, 0)
                out[0] = v; out[1] = v; out[2] = v
                out[3] = model == .grayAlpha ? Self.scaled(pixel, 1)
                    : transparent.map { Self.sample(pixel, 0) == $0.0 ? 0 : 255 } ?? 255
            case .rgb, .rgba:
                out[0] = Self.scaled(pixel, 0); out[1] = Self.scaled(pixel, 1); out[2] = Self.scaled(pixel, 2)
                if model == .rgba {
                    out[3] = Self.scaled(pixel, 3)
                } else if let key = transparent {
                    out[3] = Self.sample(pixel, 0) == key.0 && Self.sample(pixel, 1) == key.1
                        && Self.sample(pixel, 2) == key.2 ? 0 : 255
                } else {
                    out[3] = 255
                }
            }
        }
    }

    @inline(__always)
    private static func sample(_ pixel: UnsafePointer<UInt8>, _ index: Int) -> UInt16 {
        UInt16(pixel[2 &* index]) << 8 | UInt16(pixel[2 &* index &+ 1])
    }

    /// libpng's `png_do_scale_16_to_8`: the high byte, corrected by the low one, which rounds
    /// v × 255 / 65535 to nearest.
    @inline(__always)
    private static func scaled(_ pixel: UnsafePointer<UInt8>, _ index: Int) -> UInt8 {
        let high = Int(pixel[2 &* index]), low = Int(pixel[2 &* index &+ 1])
        return UInt8(truncatingIfNeeded: high &+ (((low &- high &+ 128) &* 65535) &>> 24))
    }
}
