import TesseraCore

/// What decoding every pixel of a file found: the header as the decode saw it, and its warnings.
public struct PixelCheck: Sendable {
    public var info: ImageInfo
    public var warnings: [String]
}

extension ImageSource {
    /// Decodes every pixel and throws at the first fault, holding as little as the file allows
    /// (like `djpeg > /dev/null`): streamable files in bands of rows through one small buffer,
    /// animations frame by frame on one canvas, anything else decoded whole.
    public func checkPixels() throws(TesseraError) -> PixelCheck {
        if format == .gif {
            // Composited straight from the file; the frames are counted as they are drawn.
            let reader = try ImageDecoders.frames(fileAt: path)
            var frames = 0
            while try reader.nextFrame() != nil { frames += 1 }
            var info = reader.info
            info.frameCount = frames
            return PixelCheck(info: info, warnings: reader.truncation.map { [$0] } ?? [])
        }
        let header = try header.get()
        if let streamer = rowStreamer {
            return PixelCheck(info: header.info, warnings: try checkRows(streamer, info: header.info))
        }
        if header.info.frameCount > 1 {
            let reader = try ImageDecoders.frames(fileAt: path)
            while try reader.nextFrame() != nil {}
            return PixelCheck(info: header.info, warnings: reader.truncation.map { [$0] } ?? [])
        }
        let decoded = try header.decoder.decode(try bytes(), options: DecodeOptions(appliesOrientation: false))
        return PixelCheck(info: header.info, warnings: decoded.warnings)
    }

    /// Reads every row from the file in 64-row bands into one buffer.
    private func checkRows(_ streamer: any RowStreamingDecoder, info: ImageInfo) throws(TesseraError) -> [String] {
        let reader = try streamer.openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions())
        let band = 64, stride = reader.width * 4
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: band * stride, alignment: 64)
        defer { buffer.deallocate() }
        while reader.rowsRead < reader.height {
            guard try reader.readRows(into: buffer, stride: stride, count: band) > 0 else {
                throw TesseraError(.invalidInput, file: path, origin: .decode,
                                   reason: "\(info.format.displayName) ended after \(reader.rowsRead) of \(reader.height) rows")
            }
        }
        try reader.finish()
        return reader.warnings
    }
}
