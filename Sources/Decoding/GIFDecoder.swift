import CGIF
import TesseraCore

/// GIF through giflib: the first frame, composited, for stills; `GIFFrameReader` streams every frame.
public struct GIFDecoder: ImageDecoder {
    public init() {}

    public var format: ImageFormat { .gif }

    /// Walks every record, skipping image data undecoded, to count frames and find the loop field.
    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        let file = try GIFFile(source)
        var frames = 0
        var loop: Int?
        var transparent = false
        walk: while true {
            switch try file.nextRecord() {
            case .image:
                frames += 1
                try file.skipImageData()
            case .graphicControl(let control):
                if control.transparentIndex != nil { transparent = true }
            case .loopCount(let count):
                loop = count
            case .otherExtension:
                continue
            case .end:
                break walk
            }
        }
        var info = GIFFrameReader.baseInfo(file)
        info.frameCount = frames
        info.loopCount = loop
        info.hasAlpha = transparent
        return info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let reader = try GIFFrameReader(source, options: options)
        guard let first = try reader.nextFrame() else {
            throw TesseraError(.invalidInput, file: source.path, stage: "decode",
                               reason: "GIF: \(reader.truncation ?? "the file has no image")")
        }
        return DecodedImage(bitmap: first.canvas, info: reader.info, warnings: [])
    }
}
