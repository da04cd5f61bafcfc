import CGIF
import TesseraCore

/// GIF through giflib: the first frame, composited, for stills; `GIFFrameReader` streams every frame.
public struct GIFDecoder: ImageDecoder {
    public init() {}

    public var format: ImageFormat { .gif }

    /// Reads the block structure (no pixels) to count frames and find the loop field. Frames are
    /// counted as the default `SubImagePolicy.merge` groups images, as `decode` draws them.
    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        let records = try records(source).grouped(by: .merge)
        var info = ImageInfo(format: .gif, width: records.canvasWidth, height: records.canvasHeight, bitDepth: 8,
                             colorModel: "palette", hasAlpha: true, needsWholeImage: true,
                             frameCount: records.frames.count, colorSpace: .unspecified, iccProfile: nil)
        info.loopCount = records.loopField
        return info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let reader = try GIFFrameReader(source, options: options)
        guard let first = try reader.nextFrame() else {
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "GIF: \(reader.truncation ?? "the file has no image")")
        }
        return DecodedImage(bitmap: first.canvas, info: reader.info, warnings: [])
    }
}
