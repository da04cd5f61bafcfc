import TesseraCore

extension PNGEncoder {
    /// The image as this encoder would write it, but keeping an alpha channel even when every
    /// pixel is opaque (RGBA, or gray+alpha): what a file that stores an opaque alpha costs at
    /// this effort. `encode` drops such a channel, so the size report compares the two to say
    /// what the channel alone costs (docs/size-report.md, "Insights"). No palette.
    public func encodeKeepingAlpha(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw TesseraError(.internalFailure, origin: .encode, reason: "PNG: an image needs at least one pixel")
        }
        let layout: PixelPacking.Layout = switch PixelPacking.smallestLayout(bitmap) {
        case .gray, .grayAlpha: .grayAlpha
        case .rgb, .rgba: .rgba
        }
        let rows = PixelPacking.PackedRows(bitmap, as: layout)
        let filtered = PNGRowFilter.filter(width: bitmap.width, height: bitmap.height, bytesPerPixel: layout.rawValue) {
            rows.row($0, into: $1)
        }
        let header = Self.header(width: bitmap.width, height: bitmap.height, bitDepth: 8, colorType: layout.pngColorType)
        return try filtered.withUnsafeBytes { raw in
            Result { () throws(TesseraError) in try file(header: header, palette: [], data: raw, iccProfile: iccProfile) }
        }.get()
    }
}
