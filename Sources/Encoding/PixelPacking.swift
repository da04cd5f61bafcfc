import TesseraCore

/// Turns any `Bitmap` into the tightly packed, straight-alpha rows an encoder wants, choosing the
/// smallest channel layout that loses nothing.
enum PixelPacking {
    enum Layout: Int {
        case gray = 1, grayAlpha = 2, rgb = 3, rgba = 4

        /// PNG's colour-type code.
        var pngColorType: Int32 {
            switch self {
            case .gray: 0
            case .rgb: 2
            case .grayAlpha: 4
            case .rgba: 6
            }
        }
    }

    /// Straight-alpha RGBA8 rows, whatever the input layout.
    static func straightRGBA(_ bitmap: Bitmap) -> [UInt8] {
        let width = bitmap.width, height = bitmap.height
        // Already in shape: share the bitmap's storage instead of copying it.
        if bitmap.format == .rgba8, bitmap.alpha != .premultiplied, bitmap.rowStride == width * 4,
           bitmap.pixels.count == width * height * 4 {
            return bitmap.pixels
        }
        var out = [UInt8](repeating: 255, count: width * height * 4)
        let channels = bitmap.format.bytesPerPixel
        bitmap.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * bitmap.rowStride
                    for x in 0..<width {
                        let s = row + x * channels, t = (y * width + x) * 4
                        switch bitmap.format {
                        case .rgba8:
                            target[t] = source[s]; target[t + 1] = source[s + 1]
                            target[t + 2] = source[s + 2]; target[t + 3] = source[s + 3]
                        case .bgra8:
                            target[t] = source[s + 2]; target[t + 1] = source[s + 1]
                            target[t + 2] = source[s]; target[t + 3] = source[s + 3]
                        case .rgb8:
                            target[t] = source[s]; target[t + 1] = source[s + 1]; target[t + 2] = source[s + 2]
                        case .gray8:
                            target[t] = source[s]; target[t + 1] = source[s]; target[t + 2] = source[s]
                        case .grayAlpha8:
                            target[t] = source[s]; target[t + 1] = source[s]; target[t + 2] = source[s]
                            target[t + 3] = source[s + 1]
                        }
                    }
                }
                if bitmap.alpha == .premultiplied { unpremultiply(target) }
            }
        }
        return out
    }

    /// Undoes premultiplication with rounding; fully transparent pixels become transparent black.
    private static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[index + 3])
            if alpha == 255 { continue }
            if alpha == 0 {
                pixels[index] = 0; pixels[index + 1] = 0; pixels[index + 2] = 0
                continue
            }
            for channel in 0..<3 {
                let value = (Int(pixels[index + channel]) * 255 + alpha / 2) / alpha
                pixels[index + channel] = UInt8(min(255, value))
            }
        }
    }

    /// The smallest layout that represents `rgba` exactly.
    static func smallestLayout(_ rgba: [UInt8]) -> Layout {
        var opaque = true, gray = true
        rgba.withUnsafeBufferPointer { pixels in
            var index = 0
            while index < pixels.count, opaque || gray {
                if pixels[index + 3] != 255 { opaque = false }
                if pixels[index] != pixels[index + 1] || pixels[index] != pixels[index + 2] { gray = false }
                index += 4
            }
        }
        switch (gray, opaque) {
        case (true, true): return .gray
        case (true, false): return .grayAlpha
        case (false, true): return .rgb
        case (false, false): return .rgba
        }
    }

    /// Packs straight RGBA rows into `layout`.
    static func pack(_ rgba: [UInt8], as layout: Layout) -> [UInt8] {
        if layout == .rgba { return rgba }
        let pixelCount = rgba.count / 4, channels = layout.rawValue
        return [UInt8](unsafeUninitializedCapacity: pixelCount * channels) { out, initialized in
            rgba.withUnsafeBufferPointer { buffer in
                // One loop per layout, so none branches per pixel.
                let source = buffer.baseAddress!, target = out.baseAddress!
                switch layout {
                case .rgb:
                    for pixel in 0..<pixelCount {
                        let s = source + pixel * 4, t = target + pixel * 3
                        t[0] = s[0]; t[1] = s[1]; t[2] = s[2]
                    }
                case .grayAlpha:
                    for pixel in 0..<pixelCount {
                        target[pixel * 2] = source[pixel * 4]; target[pixel * 2 + 1] = source[pixel * 4 + 3]
                    }
                case .gray, .rgba:
                    for pixel in 0..<pixelCount { target[pixel] = source[pixel * 4] }
                }
            }
            initialized = pixelCount * channels
        }
    }
}
