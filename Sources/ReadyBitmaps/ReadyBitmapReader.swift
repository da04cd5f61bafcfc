import TesseraCore

/// Reads a ready-to-draw bitmap file back into a premultiplied RGBA8 `Bitmap`: for `inspect`,
/// tests and tools; apps map the file directly instead.
public enum ReadyBitmapReader {
    public static func read(_ bytes: [UInt8], path: String) throws(TesseraError) -> (ReadyBitmapHeader, Bitmap) {
        let header = try ReadyBitmapHeader.decode(bytes, fileSize: bytes.count, path: path)
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        for y in 0..<header.height {
            for x in 0..<header.width {
                let s = header.dataOffset + y * header.rowStride + x * 4, t = (y * header.width + x) * 4
                let swap = header.layout == .bgra8
                pixels[t] = bytes[swap ? s + 2 : s]
                pixels[t + 1] = bytes[s + 1]
                pixels[t + 2] = bytes[swap ? s : s + 2]
                pixels[t + 3] = bytes[s + 3]
            }
        }
        let bitmap = try Bitmap(width: header.width, height: header.height, format: .rgba8,
                                alpha: header.opaque ? .opaque : .premultiplied, colorSpace: header.colorSpace,
                                pixels: pixels)
        return (header, bitmap)
    }
}
