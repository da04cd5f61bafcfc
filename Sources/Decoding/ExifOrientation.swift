import TesseraCore

/// Reads the orientation tag (0x0112) from an EXIF block: a TIFF header and its first IFD.
///
/// Every offset is bounds-checked: broken EXIF (which cameras and editors do write) yields nil,
/// never a crash, and the image is then shown as stored.
enum ExifOrientation {
    static func read(_ exif: [UInt8]) -> Orientation? {
        var bytes = exif[...]
        // WebP and some writers keep the JPEG-style "Exif\0\0" prefix.
        if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes = bytes.dropFirst(6) }
        let tiff = Array(bytes)
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[offset]) | Int(tiff[offset + 1]) << 8
                : Int(tiff[offset]) << 8 | Int(tiff[offset + 1])
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2),
                  let high = u16(littleEndian ? offset + 2 : offset) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<min(count, 1000) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
            return Orientation(rawValue: value)
        }
        return nil
    }
}
