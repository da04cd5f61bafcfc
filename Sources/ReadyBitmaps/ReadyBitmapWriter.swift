import TesseraCore

/// Turns a decoded bitmap into a ready-to-draw bitmap file: premultiplied, in the app's native
/// layout, rows aligned to 64 bytes, behind a 64-byte header. An app memory-maps it and hands
/// the pixels to the GPU or to `CGImage` with no decode and no copy.
public struct ReadyBitmapWriter: Sendable {
    public var layout: ReadyPixelLayout
    /// Where pixel data starts; a multiple of 64. 4096 keeps the pixels page-aligned when mapped.
    public var dataOffset: Int

    public init(layout: ReadyPixelLayout = .bgra8, dataOffset: Int = 4096) {
        self.layout = layout
        self.dataOffset = max(ReadyBitmapHeader.size, (dataOffset + 63) / 64 * 64)
    }

    /// The file's bytes. `bitmap` is RGBA8 straight, premultiplied or opaque, and already upright.
    public func encode(_ bitmap: Bitmap, appliedOrientation: Orientation = .up) throws(TesseraError) -> [UInt8] {
        guard bitmap.format == .rgba8 else {
            throw TesseraError(.internalFailure, origin: .decompress, reason: "expects RGBA8, got \(bitmap.format)")
        }
        let stride = (bitmap.width * 4 + 63) / 64 * 64
        var opaque = true
        var header = ReadyBitmapHeader(width: bitmap.width, height: bitmap.height, rowStride: stride, layout: layout,
                                       opaque: true, colorSpace: bitmap.colorSpace,
                                       appliedOrientation: appliedOrientation, dataOffset: dataOffset)
        var file = [UInt8](repeating: 0, count: dataOffset + header.dataLength)
        let premultiply = bitmap.alpha == .straight
        let swapRedBlue = layout == .bgra8
        bitmap.pixels.withUnsafeBufferPointer { source in
            file.withUnsafeMutableBufferPointer { target in
                for y in 0..<bitmap.height {
                    let sourceRow = y * bitmap.rowStride, targetRow = dataOffset + y * stride
                    for x in 0..<bitmap.width {
                        let s = sourceRow + x * 4, t = targetRow + x * 4
                        let alpha = UInt32(source[s + 3])
                        if alpha != 255 { opaque = false }
                        var r = UInt32(source[s]), g = UInt32(source[s + 1]), b = UInt32(source[s + 2])
                        if premultiply && alpha != 255 {
                            // Exact rounding of v × a / 255.
                            r = (r * alpha + 127) / 255
                            g = (g * alpha + 127) / 255
                            b = (b * alpha + 127) / 255
                        }
                        target[t] = UInt8(swapRedBlue ? b : r)
                        target[t + 1] = UInt8(g)
                        target[t + 2] = UInt8(swapRedBlue ? r : b)
                        target[t + 3] = UInt8(alpha)
                    }
                }
            }
        }
        header.opaque = opaque
        file.replaceSubrange(0..<ReadyBitmapHeader.size, with: header.encoded())
        return file
    }
}
