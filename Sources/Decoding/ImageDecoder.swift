import TesseraCore

/// Decodes one image format. One small protocol, one implementation per format.
public protocol ImageDecoder: Sendable {
    /// The format this decoder reads.
    var format: ImageFormat { get }
    /// Reads the header only.
    func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo
    /// Decodes the whole image to 8-bit RGBA, after checking the limits in `options`.
    func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage
}

/// A decoder that can hand out full-width bands of rows, so a consumer (the downscaler) holds
/// only a band rather than the whole image.
public protocol RowStreamingDecoder: ImageDecoder {
    /// Opens a row stream. `scaleDenominator` asks for shrink-on-load where the format supports
    /// it: JPEG's DCT scaling (1, 2, 4, 8), WebP's scaled decode (any whole factor); PNG accepts only 1.
    func openRows(_ input: CodecInput, scaleDenominator: Int, options: DecodeOptions) throws(TesseraError) -> any RowReader
    /// Reads the header of a file without loading it.
    func probe(fileAt path: String) throws(TesseraError) -> ImageInfo
}

/// A decoder's row stream: a `RowSource` that also tells what the file said about itself.
public protocol RowReader: RowSource {
    var info: ImageInfo { get }
}

extension RowStreamingDecoder {
    /// Decodes by streaming every row into one bitmap: the whole-image path for streamable files.
    func decodeByStreaming(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let reader = try openRows(source, scaleDenominator: 1, options: options)
        var bitmap = try Bitmap.unfilled(width: reader.width, height: reader.height, format: .rgba8,
                                alpha: reader.info.hasAlpha ? .straight : .opaque,
                                colorSpace: reader.info.colorSpace)
        let stride = bitmap.rowStride
        let band = 64
        var row = 0
        while row < reader.height {
            try options.checkpoint()
            let filled = try bitmap.pixels.withUnsafeMutableBytes { buffer in
                let start = UnsafeMutableRawBufferPointer(rebasing: buffer[(row * stride)...])
                return Result { () throws(TesseraError) in
                    try reader.readRows(into: start, stride: stride, count: min(band, reader.height - row))
                }
            }.get()
            guard filled > 0 else {
                throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                                   reason: "\(format.displayName) ended after \(row) of \(reader.height) rows")
            }
            row += filled
        }
        try reader.finish()
        return DecodedImage(bitmap: bitmap, info: reader.info, warnings: reader.warnings)
    }
}
