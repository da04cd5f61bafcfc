import TesseraCore

/// The fixed 64-byte header of a ready-to-draw bitmap file (`docs/bitmap-format.md`).
///
/// All fields are little-endian. The pixel data starts at `dataOffset`, a multiple of 64 (4096 by
/// default, so the pixels are page-aligned when the file is memory-mapped).
public struct ReadyBitmapHeader: Sendable, Equatable {
    public static let magic: [UInt8] = Array("TSRBMAP\u{0}".utf8)
    public static let currentVersion: UInt16 = 1
    public static let size = 64
    public static let rowAlignment = 64

    public var width: Int
    public var height: Int
    /// Bytes between row starts: a multiple of 64.
    public var rowStride: Int
    public var layout: ReadyPixelLayout
    /// True when every pixel is opaque (alpha bytes are all 255).
    public var opaque: Bool
    public var colorSpace: ColorSpace
    /// The EXIF orientation that was applied to make the pixels upright (1 when none was needed).
    public var appliedOrientation: Orientation
    public var dataOffset: Int

    public var dataLength: Int { rowStride * height }

    /// Colour-space codes: 0 unspecified (draw as sRGB), 1 sRGB, 2 Display P3, 3 another ICC profile.
    static func code(for space: ColorSpace) -> UInt32 {
        switch space {
        case .unspecified: 0
        case .sRGB: 1
        case .displayP3: 2
        case .icc: 3
        }
    }

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.appendLittleEndian(UInt16(Self.currentVersion))
        bytes.appendLittleEndian(UInt16(Self.size))
        bytes.appendLittleEndian(UInt32(width))
        bytes.appendLittleEndian(UInt32(height))
        bytes.appendLittleEndian(UInt32(rowStride))
        bytes.appendLittleEndian(layout.code)
        bytes.appendLittleEndian(UInt32(opaque ? 0 : 1))
        bytes.appendLittleEndian(Self.code(for: colorSpace))
        bytes.appendLittleEndian(UInt32(appliedOrientation.rawValue))
        bytes.appendLittleEndian(UInt64(dataOffset))
        bytes.appendLittleEndian(UInt64(dataLength))
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(CRC32.checksum(bytes))
        return bytes
    }

    /// Parses and checks a header; `fileSize` bounds the data it may point at.
    public static func decode(_ bytes: some Collection<UInt8>, fileSize: Int, path: String) throws(TesseraError) -> ReadyBitmapHeader {
        let header = Array(bytes.prefix(size))
        func fail(_ reason: String) -> TesseraError {
            TesseraError(.invalidInput, file: path, origin: .bitmap, reason: "ready bitmap: \(reason)")
        }
        guard header.count == size else { throw fail("the file is shorter than its 64-byte header") }
        guard header.starts(with: magic) else { throw fail("wrong magic bytes: not a Tessera ready bitmap") }
        let version = header.readLittleEndian(UInt16.self, at: 8)
        guard version == currentVersion else { throw fail("version \(version) is not \(currentVersion)") }
        guard header.readLittleEndian(UInt32.self, at: 60) == CRC32.checksum(header[0..<60]) else {
            throw fail("header checksum mismatch (the header is corrupt)")
        }
        let width = Int(header.readLittleEndian(UInt32.self, at: 12))
        let height = Int(header.readLittleEndian(UInt32.self, at: 16))
        let stride = Int(header.readLittleEndian(UInt32.self, at: 20))
        guard let layout = ReadyPixelLayout(code: header.readLittleEndian(UInt32.self, at: 24)) else {
            throw fail("unknown pixel layout code")
        }
        let colorCode = header.readLittleEndian(UInt32.self, at: 32)
        let colorSpace: ColorSpace = switch colorCode {
        case 1: .sRGB
        case 2: .displayP3
        case 3: .icc(description: "embedded profile")
        default: .unspecified
        }
        guard let orientation = Orientation(rawValue: Int(header.readLittleEndian(UInt32.self, at: 36))) else {
            throw fail("invalid orientation")
        }
        let offset = Int(header.readLittleEndian(UInt64.self, at: 40))
        let length = Int(header.readLittleEndian(UInt64.self, at: 48))
        guard width > 0, height > 0, stride >= width * 4, stride % rowAlignment == 0 else {
            throw fail("invalid geometry \(width)×\(height) with stride \(stride)")
        }
        guard offset >= size, offset % rowAlignment == 0, length == stride * height, offset + length <= fileSize else {
            throw fail("pixel data at \(offset)+\(length) does not fit the \(fileSize)-byte file")
        }
        return ReadyBitmapHeader(width: width, height: height, rowStride: stride, layout: layout,
                                 opaque: header.readLittleEndian(UInt32.self, at: 28) == 0, colorSpace: colorSpace,
                                 appliedOrientation: orientation, dataOffset: offset)
    }
}
