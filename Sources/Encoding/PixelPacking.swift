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
        // Already in shape: share the bitmap's storage instead of copying it.
        if isStraightRGBA(bitmap) { return bitmap.pixels }
        let rowBytes = bitmap.width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * bitmap.height) { out, initialized in
            for y in 0..<bitmap.height { straightRGBARow(bitmap, y, into: out.baseAddress! + y * rowBytes) }
            initialized = rowBytes * bitmap.height
        }
    }

    /// Whether the bitmap's own storage already is tightly packed straight RGBA8. Premultiplied
    /// pixels that are all opaque count: premultiplying leaves them as they are, and a downscaled
    /// photo is exactly that, so an encoder need not copy its 20 MB.
    static func isStraightRGBA(_ bitmap: Bitmap) -> Bool {
        guard bitmap.format == .rgba8, bitmap.rowStride == bitmap.width * 4,
              bitmap.pixels.count == bitmap.width * bitmap.height * 4 else { return false }
        guard bitmap.alpha == .premultiplied else { return true }
        return bitmap.pixels.withUnsafeBufferPointer { pixels in
            var alpha = 3
            while alpha < pixels.count, pixels[alpha] == 255 { alpha += 4 }
            return alpha >= pixels.count
        }
    }

    /// Row `y` of the bitmap as straight-alpha RGBA8, written to `target` (`width * 4` bytes).
    static func straightRGBARow(_ bitmap: Bitmap, _ y: Int, into target: UnsafeMutablePointer<UInt8>) {
        let width = bitmap.width, channels = bitmap.format.bytesPerPixel
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            let source = pixels.baseAddress! + y * bitmap.rowStride
            for x in 0..<width {
                let s = source + x * channels, t = target + x * 4
                switch bitmap.format {
                case .rgba8:
                    t[0] = s[0]; t[1] = s[1]; t[2] = s[2]; t[3] = s[3]
                case .bgra8:
                    t[0] = s[2]; t[1] = s[1]; t[2] = s[0]; t[3] = s[3]
                case .rgb8:
                    t[0] = s[0]; t[1] = s[1]; t[2] = s[2]; t[3] = 255
                case .gray8:
                    t[0] = s[0]; t[1] = s[0]; t[2] = s[0]; t[3] = 255
                case .grayAlpha8:
                    t[0] = s[0]; t[1] = s[0]; t[2] = s[0]; t[3] = s[1]
                }
            }
        }
        if bitmap.alpha == .premultiplied { unpremultiply(UnsafeMutableBufferPointer(start: target, count: width * 4)) }
    }

    /// Undoes premultiplication with rounding; fully transparent pixels become transparent black.
    static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
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
        rgba.withUnsafeBufferPointer { scan($0, opaque: &opaque, gray: &gray) }
        return layout(gray: gray, opaque: opaque)
    }

    /// The smallest layout that represents the bitmap's straight RGBA exactly, found a row at a
    /// time rather than from a whole straight copy.
    static func smallestLayout(_ bitmap: Bitmap) -> Layout {
        if isStraightRGBA(bitmap) { return smallestLayout(bitmap.pixels) }
        var opaque = true, gray = true
        let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bitmap.width * 4)
        defer { row.deallocate() }
        var y = 0
        while y < bitmap.height, opaque || gray {
            straightRGBARow(bitmap, y, into: row.baseAddress!)
            scan(UnsafeBufferPointer(row), opaque: &opaque, gray: &gray)
            y += 1
        }
        return layout(gray: gray, opaque: opaque)
    }

    static func scan(_ pixels: UnsafeBufferPointer<UInt8>, opaque: inout Bool, gray: inout Bool) {
        var index = 0
        while index < pixels.count, opaque || gray {
            if pixels[index + 3] != 255 { opaque = false }
            if pixels[index] != pixels[index + 1] || pixels[index] != pixels[index + 2] { gray = false }
            index += 4
        }
    }

    static func layout(gray: Bool, opaque: Bool) -> Layout {
        switch (gray, opaque) {
        case (true, true): .gray
        case (true, false): .grayAlpha
        case (false, true): .rgb
        case (false, false): .rgba
        }
    }

    /// Writes the bitmap's rows packed in `layout` to `row`, one at a time: what a streaming
    /// encoder reads instead of a packed copy of the whole image.
    struct PackedRows: ~Copyable {
        let bitmap: Bitmap
        let layout: Layout
        private let straight: Bool
        private let scratch: UnsafeMutablePointer<UInt8>

        init(_ bitmap: Bitmap, as layout: Layout) {
            self.bitmap = bitmap
            self.layout = layout
            straight = PixelPacking.isStraightRGBA(bitmap)
            scratch = .allocate(capacity: bitmap.width * 4)
        }

        deinit { scratch.deallocate() }

        /// Row `y`, `width * layout.rawValue` bytes, to `target`.
        func row(_ y: Int, into target: UnsafeMutablePointer<UInt8>) {
            let width = bitmap.width
            if straight {
                bitmap.pixels.withUnsafeBufferPointer { pixels in
                    PixelPacking.pack(pixels.baseAddress! + y * width * 4, count: width, as: layout, into: target)
                }
            } else {
                PixelPacking.straightRGBARow(bitmap, y, into: scratch)
                PixelPacking.pack(scratch, count: width, as: layout, into: target)
            }
        }
    }

    /// Packs straight RGBA rows into `layout`.
    static func pack(_ rgba: [UInt8], as layout: Layout) -> [UInt8] {
        if layout == .rgba { return rgba }
        let pixelCount = rgba.count / 4, channels = layout.rawValue
        return [UInt8](unsafeUninitializedCapacity: pixelCount * channels) { out, initialized in
            rgba.withUnsafeBufferPointer { pack($0.baseAddress!, count: pixelCount, as: layout, into: out.baseAddress!) }
            initialized = pixelCount * channels
        }
    }

    /// Packs `count` straight RGBA pixels into `layout` at `target`.
    static func pack(_ source: UnsafePointer<UInt8>, count pixelCount: Int, as layout: Layout,
                     into target: UnsafeMutablePointer<UInt8>) {
        // One loop per layout, so none branches per pixel.
        switch layout {
        case .rgba:
            target.update(from: source, count: pixelCount * 4)
        case .rgb:
            for pixel in 0..<pixelCount {
                let s = source + pixel * 4, t = target + pixel * 3
                t[0] = s[0]; t[1] = s[1]; t[2] = s[2]
            }
        case .grayAlpha:
            for pixel in 0..<pixelCount {
                target[pixel * 2] = source[pixel * 4]; target[pixel * 2 + 1] = source[pixel * 4 + 3]
            }
        case .gray:
            for pixel in 0..<pixelCount { target[pixel] = source[pixel * 4] }
        }
    }

    /// Unpacks `count` pixels in `layout` at `source` to straight RGBA at `target`.
    static func unpack(_ source: UnsafePointer<UInt8>, count pixelCount: Int, from layout: Layout,
                       into target: UnsafeMutablePointer<UInt8>) {
        switch layout {
        case .rgba:
            target.update(from: source, count: pixelCount * 4)
        case .rgb:
            for pixel in 0..<pixelCount {
                let s = source + pixel * 3, t = target + pixel * 4
                t[0] = s[0]; t[1] = s[1]; t[2] = s[2]; t[3] = 255
            }
        case .grayAlpha:
            for pixel in 0..<pixelCount {
                let t = target + pixel * 4, value = source[pixel * 2]
                t[0] = value; t[1] = value; t[2] = value; t[3] = source[pixel * 2 + 1]
            }
        case .gray:
            for pixel in 0..<pixelCount {
                let t = target + pixel * 4, value = source[pixel]
                t[0] = value; t[1] = value; t[2] = value; t[3] = 255
            }
        }
    }
}
